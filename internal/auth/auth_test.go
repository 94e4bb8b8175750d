package auth

import (
	"strings"
	"testing"
	"time"
)

func TestPassword(t *testing.T) {
	h, err := HashPassword("correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") || strings.Contains(h, "correct horse") {
		t.Errorf("hash %q", h)
	}
	if !CheckPassword(h, "correct horse battery") {
		t.Error("the right password is refused")
	}
	for _, wrong := range []string{"correct horse batter", "", "Correct horse battery"} {
		if CheckPassword(h, wrong) {
			t.Errorf("%q is taken", wrong)
		}
	}
	if h2, _ := HashPassword("correct horse battery"); h2 == h {
		t.Error("two hashes of one password are equal: no salt")
	}
	if _, err := HashPassword("short"); err == nil {
		t.Error("a 5-letter password is taken")
	}
	if CheckPassword("$2a$10$notargon", "x") || CheckPassword("garbage", "") {
		t.Error("a malformed hash matches")
	}
}

func TestSecrets(t *testing.T) {
	a, b := NewSecret(), NewSecret()
	if a == b || len(a) < 40 {
		t.Errorf("secrets %q, %q", a, b)
	}
	h := HashSecret(a)
	if h == a || len(h) != 64 || HashSecret(a) != h || HashSecret(b) == h {
		t.Error("HashSecret: not a stable 64-digit hash, or the same for two secrets")
	}
}

func TestBrake(t *testing.T) {
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	b := &Brake{Now: func() time.Time { return now }}
	if w := b.Wait("user:a", "addr:1"); w != 0 {
		t.Fatalf("a fresh key waits %v", w)
	}
	b.Fail("user:a", "addr:1")
	b.Fail("user:a", "addr:1")
	if w := b.Wait("user:a"); w != 2*time.Second {
		t.Errorf("after two failures: %v, want 2s", w)
	}
	if w := b.Wait("user:b", "addr:1"); w != 2*time.Second {
		t.Errorf("another name from the same address waits %v", w)
	}
	now = now.Add(3 * time.Second)
	if w := b.Wait("user:a"); w != 0 {
		t.Errorf("after the wait: %v", w)
	}
	for range 30 {
		b.Fail("user:a")
	}
	if w := b.Wait("user:a"); w != maxWait {
		t.Errorf("after many failures: %v, want %v", w, maxWait)
	}
	b.Succeed("user:a")
	if w := b.Wait("user:a"); w != 0 {
		t.Errorf("after a success: %v", w)
	}
}

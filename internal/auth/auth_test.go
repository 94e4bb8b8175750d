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
	fail := func(name, addr string) {
		t.Helper()
		if w, _ := b.Try(name, addr); w != 0 {
			t.Fatalf("%s from %s waits %v", name, addr, w)
		}
	}
	fail("a", "1")
	// The failure is recorded as the attempt begins: a second one at
	// once waits, and so do another name's from the same address.
	if w, at := b.Try("a", "1"); w != time.Second || at != nil {
		t.Errorf("a second attempt at once: wait %v", w)
	}
	if w, _ := b.Try("b", "1"); w != time.Second {
		t.Errorf("another name from the same address waits %v", w)
	}
	now = now.Add(time.Second)
	fail("a", "1")
	if w := b.Wait("a", "1"); w != 2*time.Second {
		t.Errorf("after two failures: %v, want 2s", w)
	}
	// An address that has not failed is not held by the name's brake:
	// nobody can lock an editor out.
	if w := b.Wait("a", "2"); w != 0 {
		t.Errorf("a fresh address waits %v for a name others failed", w)
	}
	// Once it has failed, it is.
	fail("a", "3")
	if w := b.Wait("a", "3"); w != 4*time.Second {
		t.Errorf("a failed address waits %v, want the name's 4s", w)
	}
	now = now.Add(5 * time.Second)
	if w := b.Wait("a", "1"); w != 0 {
		t.Errorf("after the wait: %v", w)
	}
	for range 30 {
		fail("c", "9")
		now = now.Add(maxWait)
	}
	if _, at := b.Try("c", "8"); at == nil {
		t.Fatal("a fresh address is refused")
	} else {
		at.Succeed()
	}
	// A success clears the name and takes back its own record on the
	// address, not the address's earlier failures.
	fail("d", "5")
	now = now.Add(2 * time.Second)
	_, at := b.Try("d", "5")
	at.Succeed()
	if w := b.Wait("d", "5"); w != 0 {
		t.Errorf("after a success: %v", w)
	}
	if s := b.keys["addr:5"]; s == nil || s.failures != 1 {
		t.Errorf("after a success the address has %+v, want its one earlier failure", s)
	}
	// A cancelled attempt (never checked) leaves no trace.
	_, at = b.Try("e", "6")
	at.Cancel()
	if b.keys["addr:6"] != nil || b.keys["name:e"] != nil {
		t.Errorf("a cancelled attempt left a record")
	}
}

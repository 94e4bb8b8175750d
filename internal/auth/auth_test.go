package auth

import (
	"context"
	"fmt"
	"maps"
	"net/netip"
	"slices"
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

var ctx = context.Background()

// eachLedger runs test on a brake in memory and on one with a Ledger
// that keeps records as the archive does (see tableLedger).
func eachLedger(t *testing.T, test func(*testing.T, *Brake)) {
	t.Run("memory", func(t *testing.T) { test(t, &Brake{}) })
	t.Run("ledger", func(t *testing.T) { test(t, &Brake{Ledger: &tableLedger{}}) })
}

// tableLedger keeps a Brake's records as a table does: each update sees
// copies of the records it names only, and what it leaves of them is
// kept, the rest forgotten by the update's bounds.
type tableLedger struct {
	all            Records
	updates, reads int
}

func (l *tableLedger) UpdateBrake(ctx context.Context, u LedgerUpdate, change func(*Records)) error {
	l.updates++
	if l.all.Strikes == nil {
		l.all = Records{Strikes: map[string]Strike{}, Guesses: map[string][]time.Time{}}
	}
	r := Records{Strikes: map[string]Strike{}, Guesses: map[string][]time.Time{}}
	for _, k := range u.Keys {
		if s, ok := l.all.Strikes[k]; ok {
			r.Strikes[k] = s
		}
	}
	for _, n := range u.Names {
		if g, ok := l.all.Guesses[n]; ok {
			r.Guesses[n] = slices.Clone(g)
		}
	}
	change(&r)
	for _, k := range u.Keys {
		delete(l.all.Strikes, k)
		if s, ok := r.Strikes[k]; ok {
			l.all.Strikes[k] = s
		}
	}
	for _, n := range u.Names {
		delete(l.all.Guesses, n)
		if g := r.Guesses[n]; len(g) > 0 {
			l.all.Guesses[n] = slices.Clone(g)
		}
	}
	maps.DeleteFunc(l.all.Strikes, func(_ string, s Strike) bool { return s.Until.Before(u.StrikesBefore) })
	for n, g := range l.all.Guesses {
		l.all.Guesses[n] = slices.DeleteFunc(g, func(at time.Time) bool { return !at.After(u.GuessesUpTo) })
	}
	return nil
}

func (l *tableLedger) ReadBrake(ctx context.Context, keys []string) (Records, error) {
	l.reads++
	r := Records{Strikes: map[string]Strike{}}
	for _, k := range keys {
		if s, ok := l.all.Strikes[k]; ok {
			r.Strikes[k] = s
		}
	}
	return r, nil
}

// recordsOf is every record b keeps.
func recordsOf(b *Brake) Records {
	if l, ok := b.Ledger.(*tableLedger); ok {
		return l.all
	}
	return b.mem
}

// wait is b.Wait, failing t on an error.
func wait(t *testing.T, b *Brake, name, client string) time.Duration {
	t.Helper()
	w, err := b.Wait(ctx, name, client)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// try is Try from an unknown browser, its refusal as a wait.
func try(b *Brake, name, client string) (time.Duration, *Attempt) {
	at, err := b.Try(ctx, name, client, "")
	if r, ok := err.(*Refusal); ok {
		return r.Wait, nil
	}
	return 0, at
}

func TestBrake(t *testing.T) { eachLedger(t, testBrake) }

func testBrake(t *testing.T, b *Brake) {
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	b.Now = func() time.Time { return now }
	fail := func(name, addr string) {
		t.Helper()
		if w, _ := try(b, name, addr); w != 0 {
			t.Fatalf("%s from %s waits %v", name, addr, w)
		}
	}
	fail("a", "1")
	// The failure is recorded as the attempt begins: a second one at
	// once waits, and so do another name's from the same address.
	if w, at := try(b, "a", "1"); w != time.Second || at != nil {
		t.Errorf("a second attempt at once: wait %v", w)
	}
	if w, _ := try(b, "b", "1"); w != time.Second {
		t.Errorf("another name from the same address waits %v", w)
	}
	now = now.Add(time.Second)
	fail("a", "1")
	if w := wait(t, b, "a", "1"); w != 2*time.Second {
		t.Errorf("after two failures: %v, want 2s", w)
	}
	// An address that has not failed is not held by the name's brake:
	// nobody can lock an editor out.
	if w := wait(t, b, "a", "2"); w != 0 {
		t.Errorf("a fresh address waits %v for a name others failed", w)
	}
	// Once it has failed, it is.
	fail("a", "3")
	if w := wait(t, b, "a", "3"); w != 4*time.Second {
		t.Errorf("a failed address waits %v, want the name's 4s", w)
	}
	now = now.Add(5 * time.Second)
	if w := wait(t, b, "a", "1"); w != 0 {
		t.Errorf("after the wait: %v", w)
	}
	for range 30 {
		fail("c", "9")
		now = now.Add(maxWait)
	}
	if _, at := try(b, "c", "8"); at == nil {
		t.Fatal("a fresh address is refused")
	} else {
		at.Succeed(ctx)
	}
	// A success clears the name and takes back its own record on the
	// address, not the address's earlier failures.
	fail("d", "5")
	now = now.Add(2 * time.Second)
	_, at := try(b, "d", "5")
	at.Succeed(ctx)
	if w := wait(t, b, "d", "5"); w != 0 {
		t.Errorf("after a success: %v", w)
	}
	if s, ok := recordsOf(b).Strikes["addr:5"]; !ok || s.Failures != 1 {
		t.Errorf("after a success the address has %+v, want its one earlier failure", s)
	}
	// A cancelled attempt (never checked) leaves no trace.
	_, at = try(b, "e", "6")
	at.Cancel(ctx)
	if _, ok := recordsOf(b).Strikes["addr:6"]; ok || recordsOf(b).Strikes["name:e"] != (Strike{}) {
		t.Errorf("a cancelled attempt left a record")
	}
}

// A thousand addresses get NameGuesses checked guesses at a name in the
// window, not a thousand; the editor's own browser still gets through,
// braked on its own failures only; the window frees the budget.
func TestBrakeNameBudget(t *testing.T) { eachLedger(t, testBrakeNameBudget) }

func testBrakeNameBudget(t *testing.T, b *Brake) {
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	b.Now = func() time.Time { return now }
	checked := 0
	for i := range 1000 {
		_, err := b.Try(ctx, "rana", fmt.Sprintf("10.0.%d.%d", i/256, i%256), "")
		if err == nil {
			checked++
			continue // a wrong password: the attempt stays a failure
		}
		if r, ok := err.(*Refusal); !ok || !r.KnownBrowserOnly || r.Wait <= 0 || r.Wait > NameWindow {
			t.Fatalf("address %d refused with %v", i, err)
		}
	}
	if checked != NameGuesses {
		t.Errorf("1,000 addresses got %d checked guesses, want %d", checked, NameGuesses)
	}
	// Another name is not touched.
	if _, err := b.Try(ctx, "omar", "10.9.9.9", ""); err != nil {
		t.Errorf("another name: %v", err)
	}
	// The editor's browser (a device key) is let through, and a success
	// from it takes nothing of the budget.
	at, err := b.Try(ctx, "rana", "192.0.2.7", "device-1")
	if err != nil {
		t.Fatalf("the editor's own browser is refused: %v", err)
	}
	at.Succeed(ctx)
	// A stolen device key is braked as a client is.
	if _, err := b.Try(ctx, "rana", "192.0.2.8", "device-2"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Try(ctx, "rana", "192.0.2.9", "device-2"); err == nil {
		t.Errorf("a device key that just failed is not braked")
	}
	// A cancelled guess (never checked) goes back to the budget.
	now = now.Add(NameWindow)
	at, err = b.Try(ctx, "rana", "10.1.0.1", "")
	if err != nil {
		t.Fatalf("after the window: %v", err)
	}
	at.Cancel(ctx)
	if n := len(recordsOf(b).Guesses["rana"]); n != 0 {
		t.Errorf("a cancelled guess is still counted (%d)", n)
	}
}

// A client told to wait is told from a read: a hundred guesses from one
// client cost the ledger one write, however many are refused.
func TestBrakeRefusesFromARead(t *testing.T) {
	l := &tableLedger{}
	b := &Brake{Ledger: l}
	refused := 0
	for range 100 {
		if _, err := b.Try(ctx, "rana", "10.0.0.1", ""); err != nil {
			refused++
		}
	}
	if refused != 99 || l.updates != 1 || l.reads != 100 {
		t.Errorf("100 guesses from one client: %d refused, %d writes, %d reads; want 99, 1, 100", refused, l.updates, l.reads)
	}
}

func TestClientKey(t *testing.T) {
	for _, c := range []struct{ addr, want string }{
		{"192.0.2.1", "192.0.2.1"},
		{"::ffff:192.0.2.1", "192.0.2.1"},
		{"2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"},
		{"2001:db8:1:2:ffff::1", "2001:db8:1:2::/64"}, // the same subscriber
		{"2001:db8:1:3::1", "2001:db8:1:3::/64"},
	} {
		if got := ClientKey(netip.MustParseAddr(c.addr)); got != c.want {
			t.Errorf("ClientKey(%s) = %s, want %s", c.addr, got, c.want)
		}
	}
}

// Package auth keeps editors' secrets safe: passwords hashed with
// argon2id (a memory-hard hash, in the PHC string format), random secrets
// for sessions, CSRF tokens and bearer tokens (stored only as their
// SHA-256), and a brake on guessing passwords.
package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/argon2"
)

// The argon2id cost: 19 MiB and two passes, one thread (OWASP's minimum
// for argon2id), about 40 ms on a server core.
const (
	argonTime    = 2
	argonMemory  = 19 * 1024 // KiB
	argonThreads = 1
	argonKeyLen  = 32
	saltLen      = 16
)

// HashPassword returns the PHC string of password's argon2id hash with a
// fresh salt: $argon2id$v=19$m=19456,t=2,p=1$salt$hash.
func HashPassword(password string) (string, error) {
	if len(password) < 10 {
		return "", errors.New("a password needs 10 characters or more")
	}
	salt := make([]byte, saltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key := argon2.IDKey([]byte(password), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemory, argonTime, argonThreads,
		b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// CheckPassword reports whether password matches a hash HashPassword made
// (with whatever cost it was made at), in constant time.
func CheckPassword(hash, password string) bool {
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false
	}
	var m uint32
	var t uint32
	var p uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil || m == 0 || t == 0 || p == 0 {
		return false
	}
	b64 := base64.RawStdEncoding
	salt, err1 := b64.DecodeString(parts[4])
	want, err2 := b64.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(want) == 0 || len(want) > math.MaxUint32 {
		return false
	}
	got := argon2.IDKey([]byte(password), salt, t, m, p, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1
}

// dummyHash is checked against when a name is unknown, so that a wrong
// name takes as long as a wrong password.
var dummyHash = func() string {
	h, _ := HashPassword("no editor has this password")
	return h
}()

// CheckUnknown spends the time CheckPassword would, and reports false.
func CheckUnknown(password string) bool {
	CheckPassword(dummyHash, password)
	return false
}

// NewSecret returns 32 random bytes, URL-safe base64: a session cookie, a
// CSRF token or a bearer token.
func NewSecret() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic("auth: no randomness: " + err.Error()) // the OS's random source never fails
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// HashSecret is how a secret is stored: its SHA-256, hex. The secrets are
// random, so a fast hash suffices and a stolen archive reveals none.
func HashSecret(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// Equal compares two secrets in constant time.
func Equal(a, b string) bool {
	return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

// Brake slows down guessing passwords. Each failed sign-in makes its
// client wait before it may try again, and the editor name too, twice as
// long after each failure (1 s, 2 s, 4 s … up to 15 minutes). The name's
// wait holds only for clients that have failed themselves: editor names
// are public (the history shows them), and a brake that any client could
// pull on a name would let anyone lock an editor out.
//
// A client is an address (an IPv6 one by its /64, which one subscriber
// holds whole: see ClientKey), so fresh addresses would each get a guess.
// Each name therefore has a budget of checked guesses from unknown
// browsers: NameGuesses in NameWindow. Past it, the name's password is
// checked only for a browser that has signed in as it before (a device
// cookie: OWASP's "device cookies" scheme), each such browser braked on
// its own failures. The editor at their usual browser is never locked out,
// however many addresses guess; a guesser gets NameGuesses an hour. At a
// new browser, the editor signs in with a one-time code the server's
// operator gives them (syriamap users code), which stands for a known
// browser once: a guesser can spend the budget hour after hour, and still
// never keep the editor out.
//
// An attempt is recorded as failed when it begins, before its password is
// checked, so that a hundred simultaneous guesses from one client are one
// guess and ninety-nine waits; a success takes its record back.
type Brake struct {
	mu      sync.Mutex
	keys    map[string]*strike
	guesses map[string][]time.Time // by name: unknown browsers' checked guesses in the window
	Now     func() time.Time
}

// The budget of checked guesses at one name from browsers it has not
// signed in from.
const (
	NameGuesses = 10
	NameWindow  = time.Hour
)

type strike struct {
	failures int
	until    time.Time
}

// maxWait bounds how long a key waits.
const maxWait = 15 * time.Minute

// Attempt is one sign-in let through the brake, already counted as a
// failure; Succeed or Cancel changes that.
type Attempt struct {
	b                  *Brake
	name, addr         string
	prevName, prevAddr *strike
	// guessOf is the name whose budget the attempt used ("" for a known
	// browser), at guessAt.
	guessOf string
	guessAt time.Time
}

// Refusal is why a sign-in was not let through: Wait says for how long;
// KnownBrowserOnly, that the name's budget for unknown browsers is spent.
type Refusal struct {
	Wait             time.Duration
	KnownBrowserOnly bool
}

func (r *Refusal) Error() string {
	if r.KnownBrowserOnly {
		return fmt.Sprintf("too many wrong passwords for this name from unknown browsers: sign in from a browser that has signed in as it before, or with a one-time code (syriamap users code NAME), or wait %s", r.Wait.Round(time.Second))
	}
	return fmt.Sprintf("too many wrong passwords: try again in %s", r.Wait.Round(time.Second))
}

// Try begins a sign-in for name from client (ClientKey's key); device is
// the key of a browser that has signed in as name before, which then
// stands for the client, or "". It returns the attempt, recorded as a
// failure, or a *Refusal.
func (b *Brake) Try(name, client, device string) (*Attempt, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.keys == nil {
		b.keys = map[string]*strike{}
		b.guesses = map[string][]time.Time{}
	}
	now := b.now()
	key := "addr:" + client
	if device != "" {
		key = "device:" + device
	}
	var wait time.Duration
	a := b.keys[key]
	if a != nil {
		wait = a.until.Sub(now)
		if n := b.keys["name:"+name]; n != nil {
			wait = max(wait, n.until.Sub(now)) // this client has failed: the name's brake holds
		}
	}
	if wait > 0 {
		return nil, &Refusal{Wait: wait}
	}
	at := &Attempt{b: b, name: "name:" + name, addr: key, prevName: copyStrike(b.keys["name:"+name]), prevAddr: copyStrike(a)}
	b.forget(now)
	if device == "" {
		recent := b.guesses[name]
		if len(recent) >= NameGuesses {
			return nil, &Refusal{Wait: recent[0].Add(NameWindow).Sub(now), KnownBrowserOnly: true}
		}
		b.guesses[name] = append(recent, now)
		at.guessOf, at.guessAt = name, now
	}
	b.fail(now, at.name)
	b.fail(now, at.addr)
	return at, nil
}

// ClientKey is the key a client's address is braked by: an IPv4 address
// as it is, an IPv6 one by its /64, the block one subscriber is given.
func ClientKey(addr netip.Addr) string {
	addr = addr.Unmap()
	if addr.Is6() {
		p, _ := addr.Prefix(64)
		return p.String()
	}
	return addr.String()
}

// Succeed clears the name's failures and takes back the attempt's on the
// client and the name's budget (its earlier ones stay).
func (a *Attempt) Succeed() {
	a.b.mu.Lock()
	defer a.b.mu.Unlock()
	delete(a.b.keys, a.name)
	a.b.restore(a.addr, a.prevAddr)
	a.b.giveBack(a)
}

// Cancel takes the attempt back whole: its password was never checked.
func (a *Attempt) Cancel() {
	a.b.mu.Lock()
	defer a.b.mu.Unlock()
	a.b.restore(a.name, a.prevName)
	a.b.restore(a.addr, a.prevAddr)
	a.b.giveBack(a)
}

// giveBack returns the attempt's guess to its name's budget.
func (b *Brake) giveBack(a *Attempt) {
	if a.guessOf == "" {
		return
	}
	g := b.guesses[a.guessOf]
	if i := slices.Index(g, a.guessAt); i >= 0 {
		b.guesses[a.guessOf] = slices.Delete(g, i, i+1)
	}
}

// Wait returns how long a sign-in for name from client must still wait, or
// 0 (see Brake; a spent budget for unknown browsers is not counted).
func (b *Brake) Wait(name, client string) time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.now()
	a := b.keys["addr:"+client]
	if a == nil {
		return 0
	}
	wait := a.until.Sub(now)
	if n := b.keys["name:"+name]; n != nil {
		wait = max(wait, n.until.Sub(now))
	}
	return max(wait, 0)
}

func (b *Brake) fail(now time.Time, k string) {
	s := b.keys[k]
	if s == nil {
		s = &strike{}
		b.keys[k] = s
	}
	s.failures++
	wait := time.Second << min(s.failures-1, 10)
	s.until = now.Add(min(wait, maxWait))
}

// forget drops the keys that have waited long enough to start over, and
// the guesses older than the window.
func (b *Brake) forget(now time.Time) {
	for k, s := range b.keys {
		if now.Sub(s.until) > maxWait {
			delete(b.keys, k)
		}
	}
	for name, g := range b.guesses {
		i := 0
		for i < len(g) && now.Sub(g[i]) >= NameWindow {
			i++
		}
		if i == len(g) {
			delete(b.guesses, name)
		} else if i > 0 {
			b.guesses[name] = slices.Clone(g[i:])
		}
	}
}

func (b *Brake) restore(k string, prev *strike) {
	if prev == nil {
		delete(b.keys, k)
		return
	}
	b.keys[k] = prev
}

func copyStrike(s *strike) *strike {
	if s == nil {
		return nil
	}
	c := *s
	return &c
}

func (b *Brake) now() time.Time {
	if b.Now != nil {
		return b.Now()
	}
	return time.Now()
}

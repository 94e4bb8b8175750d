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
// address wait before it may try again, and the editor name too, twice as
// long after each failure (1 s, 2 s, 4 s … up to 15 minutes). The name's
// wait holds only for addresses that have failed themselves: editor names
// are public (the history shows them), and a brake that any address could
// pull on a name would let anyone lock an editor out. Guessing is still
// slowed: each address pays for its own failures, and once it has failed,
// for everyone's on that name.
//
// An attempt is recorded as failed when it begins, before its password is
// checked, so that a hundred simultaneous guesses from one address are one
// guess and ninety-nine waits; a success takes its record back.
type Brake struct {
	mu   sync.Mutex
	keys map[string]*strike
	Now  func() time.Time
}

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
}

// Try begins a sign-in for name from addr. It returns how long the address
// must still wait, and no attempt; or 0 and the attempt, recorded as a
// failure.
func (b *Brake) Try(name, addr string) (time.Duration, *Attempt) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.keys == nil {
		b.keys = map[string]*strike{}
	}
	now := b.now()
	var wait time.Duration
	a := b.keys["addr:"+addr]
	if a != nil {
		wait = a.until.Sub(now)
		if n := b.keys["name:"+name]; n != nil {
			wait = max(wait, n.until.Sub(now)) // this address has failed: the name's brake holds
		}
	}
	if wait > 0 {
		return wait, nil
	}
	at := &Attempt{b: b, name: "name:" + name, addr: "addr:" + addr, prevName: copyStrike(b.keys["name:"+name]), prevAddr: copyStrike(a)}
	b.forget(now)
	b.fail(now, at.name)
	b.fail(now, at.addr)
	return 0, at
}

// Succeed clears the name's failures and takes back the attempt's on the
// address (its earlier ones stay).
func (a *Attempt) Succeed() {
	a.b.mu.Lock()
	defer a.b.mu.Unlock()
	delete(a.b.keys, a.name)
	a.b.restore(a.addr, a.prevAddr)
}

// Cancel takes the attempt back whole: its password was never checked.
func (a *Attempt) Cancel() {
	a.b.mu.Lock()
	defer a.b.mu.Unlock()
	a.b.restore(a.name, a.prevName)
	a.b.restore(a.addr, a.prevAddr)
}

// Wait returns how long a sign-in for name from addr must still wait, or 0
// (see Brake).
func (b *Brake) Wait(name, addr string) time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.now()
	a := b.keys["addr:"+addr]
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

// forget drops the keys that have waited long enough to start over.
func (b *Brake) forget(now time.Time) {
	for k, s := range b.keys {
		if now.Sub(s.until) > maxWait {
			delete(b.keys, k)
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

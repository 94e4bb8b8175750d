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
	"strings"

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

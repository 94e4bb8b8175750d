package httpcache

import (
	"testing"
	"time"
)

// TestPrivate: an editor's answer keeps what its handler said of it but
// anything that lets a shared cache keep it.
func TestPrivate(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"public, max-age=31536000, immutable", "private, max-age=31536000, immutable"},
		{"public, max-age=0, s-maxage=60", "private, max-age=0"},
		{"", "private, no-cache"},
		{"s-maxage=60", "private, no-cache"},
		{"no-store", "private, no-store"},
	} {
		if got := private(c.in); got != c.want {
			t.Errorf("private(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestCacheControl(t *testing.T) {
	for _, c := range []struct {
		age    time.Duration
		editor bool
		want   string
	}{
		{time.Minute, false, "public, max-age=0, s-maxage=60"},
		{time.Minute, true, "private, no-cache"},
		{0, false, "no-cache"},
		{-1, false, "no-cache"},
	} {
		if got := (&Layer{SharedMaxAge: c.age}).CacheControl(c.editor); got != c.want {
			t.Errorf("SharedMaxAge %v, editor %v: %q, want %q", c.age, c.editor, got, c.want)
		}
	}
}

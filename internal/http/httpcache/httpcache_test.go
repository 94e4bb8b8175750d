package httpcache

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/syriamap/syriamap/internal/i18n"
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

// TestTagOfLanguages (issue 67, 4b): an answer's tag names its language
// and its digits apart: Arabic with Latin digits writes the same digits
// as English, and still never shares English's entries.
func TestTagOfLanguages(t *testing.T) {
	tag := func(l i18n.Locale) string {
		r := httptest.NewRequest("GET", "/photos?q=2016", nil)
		r = r.WithContext(i18n.With(r.Context(), l))
		return tagOf(r, "photos", 7, false)
	}
	locales := map[string]i18n.Locale{
		"English":                  {Lang: i18n.English},
		"English, Latin digits":    {Lang: i18n.English, LatinDigits: true},
		"Arabic":                   {Lang: i18n.Arabic},
		"Arabic with Latin digits": {Lang: i18n.Arabic, LatinDigits: true},
	}
	seen := map[string]string{}
	for name, l := range locales {
		got := tag(l)
		if got != tag(l) {
			t.Errorf("%s: two tags for one answer", name)
		}
		if other, ok := seen[got]; ok && !(strings.HasPrefix(name, "English") && strings.HasPrefix(other, "English")) {
			t.Errorf("%s and %s share the tag %s", name, other, got)
		}
		seen[got] = name
	}
}

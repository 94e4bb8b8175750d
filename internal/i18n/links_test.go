package i18n

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestLinks: every link to the site a page holds says the page's
// language (and Latin digits on an Arabic page that has them), over one
// it said; links elsewhere, and the header's switches (chosen=1), are left alone; a
// GET form carries the language in its fields.
func TestLinks(t *testing.T) {
	ar, arLatin := Locale{Lang: Arabic}, Locale{Lang: Arabic, LatinDigits: true}
	for _, c := range []struct {
		name, in string
		l        Locale
		want     string
	}{
		{"a path", `<a href="/places/x">x</a>`, ar, `<a href="/places/x?lang=ar">x</a>`},
		{"English too", `<a href="/about" class="c">x</a>`, Locale{}, `<a href="/about?lang=en" class="c">x</a>`},
		{"a query and fragment", `<p>a &amp; b<a href="/?place=a&amp;map=8/35.1/36.2#list">x</a></p>`, arLatin,
			`<p>a &amp; b<a href="/?digits=latn&amp;lang=ar&amp;map=8/35.1/36.2&amp;place=a#list">x</a></p>`},
		{"the switches", `<a href="/about?chosen=1&amp;lang=en" hreflang="en">English</a><a href="/?chosen=1&amp;digits=latn&amp;lang=ar">0123</a>`, ar,
			`<a href="/about?chosen=1&amp;lang=en" hreflang="en">English</a><a href="/?chosen=1&amp;digits=latn&amp;lang=ar">0123</a>`},
		{"a link saying another language", `<a href="/?digits=latn&amp;lang=ar&amp;place=x">step</a>`, Locale{}, `<a href="/?lang=en&amp;place=x">step</a>`},
		{"elsewhere", `<a href="https://ucdp.uu.se/">u</a><a href="//x.org/">v</a><a href="#map">m</a>`, ar,
			`<a href="https://ucdp.uu.se/">u</a><a href="//x.org/">v</a><a href="#map">m</a>`},
		{"not a link", `<link rel="stylesheet" href="/assets/style.css"><img src="/a.jpg">`, ar, `<link rel="stylesheet" href="/assets/style.css"><img src="/a.jpg">`},
		{"a posted form", `<form method="post" action="/review/1"><input name="a"></form>`, ar, `<form method="post" action="/review/1?lang=ar"><input name="a"></form>`},
		{"a GET form", `<form method="get" action="/"><input name="q"></form>`, ar,
			`<form method="get" action="/?lang=ar"><input type="hidden" name="lang" value="ar"><input name="q"></form>`},
	} {
		if got := string(Links([]byte(c.in), c.l)); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

// TestRedirectsKeepTheLanguage: a form posted from a page whose address
// says its language is redirected to a page in that language.
func TestRedirectsKeepTheLanguage(t *testing.T) {
	h := Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/review/next?x=1", http.StatusSeeOther)
	}))
	for _, c := range []struct{ url, want string }{
		{"/review/1?lang=ar", "/review/next?lang=ar&x=1"},
		{"/review/1", "/review/next?x=1"},
	} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("POST", c.url, nil))
		if got := w.Header().Get("Location"); got != c.want {
			t.Errorf("%s: Location %q, want %q", c.url, got, c.want)
		}
	}
}

// BenchmarkLinks: a page of 5,000 rows, each with two links (about 1 MB,
// a long list's page).
func BenchmarkLinks(b *testing.B) {
	var page []byte
	for i := range 5000 {
		page = fmt.Appendf(page, `<li class="row"><a href="/photos/p%d"><img src="/thumbs/p%d.jpg" alt=""></a><p>A caption of some length, as the archive's are, with a place: <a href="/places/ocha:C%d">Aleppo</a></p></li>`, i, i, i)
	}
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		Links(page, Locale{Lang: Arabic})
	}
}

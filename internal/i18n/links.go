package i18n

import (
	"bytes"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"golang.org/x/net/html"
)

// Params are the address parameters that say l: lang always (English
// too, so that a link reads alike to a reader who chose Arabic), and
// digits=latn on an Arabic page with Latin digits.
func (l Locale) Params() url.Values {
	q := url.Values{LangParam: {string(English)}}
	if l.Lang == Arabic {
		q.Set(LangParam, string(Arabic))
	}
	if l.Lang == Arabic && l.LatinDigits {
		q.Set(DigitsParam, "latn")
	}
	return q
}

// WithLocale is the site-relative address ref ("/places/x?page=2#map")
// saying l (its Params set, over any it said: a story's step saved from
// an Arabic explorer, linked from an English page, opens in English);
// the header's switches (ChosenParam) and any other address (another
// site's, "#map", "mailto:") as given.
func WithLocale(ref string, l Locale) string {
	if !strings.HasPrefix(ref, "/") || strings.HasPrefix(ref, "//") {
		return ref
	}
	u, err := url.Parse(ref)
	if err != nil {
		return ref
	}
	q := u.Query()
	if q.Has(ChosenParam) {
		return ref
	}
	if l.Lang != Arabic || !l.LatinDigits {
		q.Del(DigitsParam)
	}
	for k, v := range l.Params() {
		q[k] = v
	}
	u.RawQuery = strings.ReplaceAll(q.Encode(), "%2F", "/") // the map's view reads as zoom/lat/lon
	return u.String()
}

// Links is the HTML page with every site-relative link it holds saying
// the page's language l: an <a>'s href, a form's action, and a GET
// form's fields (a browser drops a GET form's action's query), so that a
// link followed, copied or cited reads in the language of the page it
// was on. The rest of the page is kept byte for byte.
func Links(page []byte, l Locale) []byte {
	z := html.NewTokenizer(bytes.NewReader(page))
	var out bytes.Buffer
	out.Grow(len(page) + len(page)/32)
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return out.Bytes()
		}
		raw := z.Raw()
		if (tt != html.StartTagToken && tt != html.SelfClosingTagToken) || !linkTag(raw) {
			out.Write(raw)
			continue
		}
		raw = bytes.Clone(raw) // z.Token() reuses its buffer
		tok := z.Token()
		if localize(&tok, l) {
			out.WriteString(tok.String())
		} else {
			out.Write(raw)
		}
		if tok.Data == "form" && isGetForm(tok) {
			params := l.Params()
			for _, k := range slices.Sorted(maps.Keys(params)) {
				out.WriteString(`<input type="hidden" name="` + html.EscapeString(k) + `" value="` + html.EscapeString(params.Get(k)) + `">`)
			}
		}
	}
}

// linkTag reports whether the start tag raw may be an <a> or a <form>
// (the others are copied without being parsed).
func linkTag(raw []byte) bool {
	if len(raw) < 3 {
		return false
	}
	switch raw[1] {
	case 'a', 'A':
		return raw[2] == ' ' || raw[2] == '\t' || raw[2] == '\n' || raw[2] == '>'
	case 'f', 'F':
		return len(raw) > 5 && bytes.EqualFold(raw[1:5], []byte("form"))
	}
	return false
}

// localize adds l to tok's link, reporting whether it changed tok.
func localize(tok *html.Token, l Locale) bool {
	var name string
	switch tok.Data {
	case "a":
		name = "href"
	case "form":
		name = "action"
	default:
		return false
	}
	for i, a := range tok.Attr {
		if a.Namespace == "" && a.Key == name {
			v := WithLocale(a.Val, l)
			tok.Attr[i].Val = v
			return v != a.Val
		}
	}
	return false
}

func isGetForm(tok html.Token) bool {
	for _, a := range tok.Attr {
		if a.Key == "method" {
			return strings.EqualFold(a.Val, "get")
		}
	}
	return true
}

// localRedirects is a response whose redirects to the site keep the
// request's locale (a form posted from an Arabic page lands on an
// Arabic page), for a request whose address says its language.
type localRedirects struct {
	http.ResponseWriter
	l Locale
}

func (w localRedirects) WriteHeader(status int) {
	if status >= 300 && status < 400 {
		if loc := w.Header().Get("Location"); loc != "" {
			w.Header().Set("Location", WithLocale(loc, w.l))
		}
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w localRedirects) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w localRedirects) Unwrap() http.ResponseWriter { return w.ResponseWriter }

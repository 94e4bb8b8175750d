package i18n

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync"
)

// An address decides its page's language and digits: ?lang=ar,
// ?digits=latn. One that says nothing is in English, or in what the reader
// chose with the header's switch, which marks its link ?chosen=1 and is
// kept in a cookie a year long. A language in an address is that page's
// alone, so a link reads alike for everyone it is given to.
const (
	LangParam    = "lang"
	ChosenParam  = "chosen"
	DigitsParam  = "digits"
	cookieMaxAge = 365 * 24 * 60 * 60
)

// FromRequest is the locale a request asks for: the language in its
// address (?lang=), else the one the reader chose with the switch (its
// cookie), else English — never the browser's Accept-Language, which
// would read one address differently for different readers; the digits
// likewise (?digits=latn or arab).
func FromRequest(r *http.Request) Locale {
	q := r.URL.Query()
	var l Locale
	if lang, ok := ParseLang(choice(r, q, LangParam)); ok {
		l.Lang = lang
	} else {
		l.Lang = English
	}
	l.LatinDigits = choice(r, q, DigitsParam) == "latn"
	return l
}

// choice is the value of name in the address, else in its cookie; an
// address's value that is not offered counts as said (and wrong), not
// as silence that a cookie could fill.
func choice(r *http.Request, q url.Values, name string) string {
	if q.Has(name) {
		return q.Get(name)
	}
	if c, err := r.Cookie(name); err == nil {
		return c.Value
	}
	return ""
}

// Handler gives every request its reader's locale (From(r.Context()),
// worked out when a page first asks: the API's requests never do). A
// GET marked as the switch's choice (?lang=ar&chosen=1) keeps the choice
// in a cookie and is redirected to its address without the mark, which
// says the language itself. (Pages differ by language and, for an
// address that says none, by cookie: their renderer says Vary.)
func Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if (r.Method == http.MethodGet || r.Method == http.MethodHead) && strings.Contains(r.URL.RawQuery, ChosenParam+"=") &&
			r.URL.Query().Has(ChosenParam) {
			rememberChoice(w, r)
			return
		}
		locale := sync.OnceValue(func() Locale { return FromRequest(r) })
		if q := r.URL.RawQuery; strings.Contains(q, LangParam+"=") || strings.Contains(q, DigitsParam+"=") {
			w = localRedirects{w, locale()}
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), localeKey{}, locale)))
	})
}

// rememberChoice keeps the switch's choice (English forgets the choice
// of a language, English being what an address that says nothing reads)
// and sends the reader to the address without the switch's mark.
func rememberChoice(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if lang, ok := ParseLang(q.Get(LangParam)); ok && lang == English {
		http.SetCookie(w, &http.Cookie{Name: LangParam, Value: "", Path: "/", MaxAge: -1, SameSite: http.SameSiteLaxMode})
	} else if ok {
		remember(w, LangParam, string(lang))
	}
	if v := q.Get(DigitsParam); v == "latn" || v == "arab" {
		remember(w, DigitsParam, v)
	}
	q.Del(ChosenParam)
	u := *r.URL
	u.RawQuery = q.Encode()
	u.Scheme, u.Host = "", ""
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, u.RequestURI(), http.StatusSeeOther)
}

func remember(w http.ResponseWriter, name, value string) {
	http.SetCookie(w, &http.Cookie{Name: name, Value: value, Path: "/", MaxAge: cookieMaxAge,
		SameSite: http.SameSiteLaxMode})
}

// SwitchURL is u with its language (or digits) set to value and marked
// as the reader's choice (ChosenParam), for the header's switch: the same
// page, otherwise as it was.
func SwitchURL(u *url.URL, param, value string) string {
	q := u.Query()
	q.Set(param, value)
	q.Set(ChosenParam, "1")
	v := *u
	v.RawQuery = q.Encode()
	v.Scheme, v.Host = "", ""
	return v.RequestURI()
}

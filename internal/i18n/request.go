package i18n

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"golang.org/x/text/language"
)

// The reader's choices are kept in cookies, a year long, and may be
// given in any address: ?lang=ar, ?digits=latn.
const (
	LangParam    = "lang"
	DigitsParam  = "digits"
	cookieMaxAge = 365 * 24 * 60 * 60
)

var matcher = language.NewMatcher([]language.Tag{language.English, language.Arabic})

// FromRequest is the locale a request asks for: the language in its
// address (?lang=), else in its cookie, else the best of its
// Accept-Language; the digits likewise (?digits=latn or arab).
func FromRequest(r *http.Request) Locale {
	q := r.URL.Query()
	var l Locale
	if lang, ok := ParseLang(choice(r, q, LangParam)); ok {
		l.Lang = lang
	} else {
		tags, _, _ := language.ParseAcceptLanguage(r.Header.Get("Accept-Language"))
		if _, i, conf := matcher.Match(tags...); conf != language.No && i == 1 {
			l.Lang = Arabic
		} else {
			l.Lang = English
		}
	}
	l.LatinDigits = choice(r, q, DigitsParam) == "latn"
	return l
}

func choice(r *http.Request, q url.Values, name string) string {
	if v := q.Get(name); v != "" {
		return v
	}
	if c, err := r.Cookie(name); err == nil {
		return c.Value
	}
	return ""
}

// Handler gives every request its reader's locale (From(r.Context()),
// worked out when a page first asks: the API's requests never do) and
// keeps a choice made in the address in a cookie, so that the pages after
// it keep it. (Pages differ by language: their renderer says Vary.)
func Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if raw := r.URL.RawQuery; strings.Contains(raw, LangParam+"=") || strings.Contains(raw, DigitsParam+"=") {
			q := r.URL.Query()
			if lang, ok := ParseLang(q.Get(LangParam)); ok {
				remember(w, LangParam, string(lang))
			}
			if v := q.Get(DigitsParam); v == "latn" || v == "arab" {
				remember(w, DigitsParam, v)
			}
		}
		locale := sync.OnceValue(func() Locale { return FromRequest(r) })
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), localeKey{}, locale)))
	})
}

func remember(w http.ResponseWriter, name, value string) {
	http.SetCookie(w, &http.Cookie{Name: name, Value: value, Path: "/", MaxAge: cookieMaxAge,
		SameSite: http.SameSiteLaxMode})
}

// SwitchURL is u with its language (or digits) set to value, for the
// header's choices: the same page, otherwise as it was.
func SwitchURL(u *url.URL, param, value string) string {
	q := u.Query()
	q.Set(param, value)
	v := *u
	v.RawQuery = q.Encode()
	v.Scheme, v.Host = "", ""
	return v.RequestURI()
}

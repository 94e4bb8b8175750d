package i18n

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestCatalogueComplete holds every message to what a page needs of it:
// an English and an Arabic text; a message that counts, every plural
// form each language has (Arabic six, English two); and the same
// placeholders in both languages, so that no value goes missing.
func TestCatalogueComplete(t *testing.T) {
	if len(catalogue) < 400 {
		t.Fatalf("the catalogue holds %d messages", len(catalogue))
	}
	forms := map[Lang][]string{English: {"one", "other"}, Arabic: {"zero", "one", "two", "few", "many", "other"}}
	for key, m := range catalogue {
		var places []string
		for _, lang := range Langs {
			txt, ok := m[lang]
			if !ok {
				t.Errorf("%s: no %s", key, lang)
				continue
			}
			texts := []string{txt.s}
			if txt.forms != nil {
				texts = nil
				for _, f := range forms[lang] {
					if txt.forms[f] == "" {
						t.Errorf("%s: %s has no plural form %q", key, lang, f)
					}
					texts = append(texts, txt.forms[f])
				}
				if (m[English].forms == nil) != (m[Arabic].forms == nil) {
					t.Errorf("%s: counts in one language only", key)
				}
			}
			for _, s := range texts {
				if strings.TrimSpace(s) == "" && key != "common.list-sep" {
					t.Errorf("%s: %s is empty", key, lang)
				}
			}
			got := placeholders(texts)
			if lang == English {
				places = got
			} else if !slices.Equal(got, places) {
				t.Errorf("%s: placeholders %v in Arabic, %v in English", key, got, places)
			}
		}
	}
}

var placeholderRe = regexp.MustCompile(`\{(\w+)\}`)

// placeholders are the names a message's texts fill in, in any form
// (an Arabic form may say "one" in words and leave out {n}).
func placeholders(texts []string) []string {
	seen := map[string]bool{}
	for _, s := range texts {
		for _, m := range placeholderRe.FindAllStringSubmatch(s, -1) {
			seen[m[1]] = true
		}
	}
	// n chooses the form; sep is how English joins a range, which
	// Arabic writes with words ("من … إلى …").
	delete(seen, "n")
	delete(seen, "sep")
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func TestPluralForm(t *testing.T) {
	for _, c := range []struct {
		lang Lang
		n    int
		want string
	}{
		{English, 0, "other"}, {English, 1, "one"}, {English, 2, "other"},
		{Arabic, 0, "zero"}, {Arabic, 1, "one"}, {Arabic, 2, "two"}, {Arabic, 3, "few"}, {Arabic, 10, "few"},
		{Arabic, 11, "many"}, {Arabic, 99, "many"}, {Arabic, 100, "other"}, {Arabic, 102, "other"}, {Arabic, 103, "few"},
		{Arabic, 111, "many"}, {Arabic, 1000, "other"},
	} {
		if got := PluralForm(c.lang, c.n); got != c.want {
			t.Errorf("PluralForm(%s, %d) = %s, want %s", c.lang, c.n, got, c.want)
		}
	}
}

func TestT(t *testing.T) {
	ar, en, arLatin := Locale{Lang: Arabic}, Locale{}, Locale{Lang: Arabic, LatinDigits: true}
	for _, c := range []struct {
		l    Locale
		key  string
		args []any
		want string
	}{
		{en, "common.photos", []any{"n", 1}, "1 photo"},
		{en, "common.photos", []any{"n", 12345}, "12,345 photos"},
		{ar, "common.photos", []any{"n", 0}, "لا صور"},
		{ar, "common.photos", []any{"n", 1}, "صورة واحدة"},
		{ar, "common.photos", []any{"n", 2}, "صورتان"},
		{ar, "common.photos", []any{"n", 5}, "٥ صور"},
		{ar, "common.photos", []any{"n", 25}, "٢٥ صورة"},
		{ar, "common.photos", []any{"n", 1200}, "١٬٢٠٠ صورة"},
		{arLatin, "common.photos", []any{"n", 1200}, "1,200 صورة"},
		// A Latin name keeps its brackets inside an Arabic sentence: it is
		// isolated (FSI … PDI), the kind in Arabic beside it.
		{ar, "place.within", []any{"place", "Aleppo (city)", "kind", "مدينة"}, "\u2068Aleppo (city)\u2069 (\u2068مدينة\u2069)"},
		{en, "place.within", []any{"place", "Aleppo", "kind", "city"}, "Aleppo (city)"},
		{en, "no.such.key", nil, "⟦no.such.key⟧"},
	} {
		if got := c.l.T(c.key, c.args...); got != c.want {
			t.Errorf("%+v.T(%s, %v) = %q, want %q", c.l, c.key, c.args, got, c.want)
		}
	}
}

func TestNumbersAndDates(t *testing.T) {
	ar, en, arLatin := Locale{Lang: Arabic}, Locale{}, Locale{Lang: Arabic, LatinDigits: true}
	for _, c := range []struct{ got, want string }{
		{ar.Int(1234567), "١٬٢٣٤٬٥٦٧"}, {en.Int(1234567), "1,234,567"}, {ar.Int(-12), "-١٢"}, {en.Int(0), "0"},
		{ar.Decimal(0.95, 2), "٠٫٩٥"}, {arLatin.Decimal(0.95, 2), "0.95"},
		{en.Date(2016, time.June, 0), "June 2016"},
		{ar.Date(2016, time.June, 0), "حزيران/يونيو ٢٠١٦"},
		{arLatin.Date(2016, time.June, 0), "حزيران/يونيو 2016"},
		{en.Date(2017, time.January, 22), "22 January 2017"},
		{ar.Date(2017, time.January, 22), "٢٢ كانون الثاني/يناير ٢٠١٧"},
		{ar.Date(2014, 0, 0), "٢٠١٤"}, {en.Date(0, 0, 0), ""},
		{ar.Dir() + en.Dir(), "rtlltr"}, {ar.Digits() + arLatin.Digits() + en.Digits(), "arablatnlatn"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

// TestFromRequest: the address decides the language (?lang=); an
// address that says nothing is in English, or in the language the
// reader chose with the header's switch (the cookie it left); the
// browser's Accept-Language decides nothing, so that one address reads
// alike for everyone who has not chosen.
func TestFromRequest(t *testing.T) {
	for _, c := range []struct {
		name, url, cookie, accept string
		want                      Locale
	}{
		{"nothing said", "/", "", "", Locale{Lang: English}},
		{"an Arabic browser", "/", "", "ar-SY,ar;q=0.9,en;q=0.5", Locale{Lang: English}},
		{"an English browser", "/", "", "en-GB,en;q=0.9,ar;q=0.8", Locale{Lang: English}},
		{"a French browser", "/", "", "fr-FR", Locale{Lang: English}},
		{"the switch's choice", "/", "ar", "en", Locale{Lang: Arabic}},
		{"the address over the choice", "/?lang=en", "ar", "ar", Locale{Lang: English}},
		{"the address over the browser", "/?lang=ar", "", "en", Locale{Lang: Arabic}},
		{"digits in the address", "/?lang=ar&digits=latn", "", "", Locale{Lang: Arabic, LatinDigits: true}},
		{"a language not offered", "/?lang=klingon", "", "ar", Locale{Lang: English}},
		{"a cookie not offered", "/", "klingon", "ar", Locale{Lang: English}},
	} {
		r := httptest.NewRequest("GET", c.url, nil)
		if c.cookie != "" {
			r.AddCookie(&http.Cookie{Name: LangParam, Value: c.cookie})
		}
		r.Header.Set("Accept-Language", c.accept)
		if got := FromRequest(r); got != c.want {
			t.Errorf("%s: %s, cookie %q, Accept-Language %q: %+v, want %+v", c.name, c.url, c.cookie, c.accept, got, c.want)
		}
	}
}

// TestHandlerRemembersOnlyTheSwitch: a language in an address is that
// page's alone, and leaves no cookie, so the plain address after it is
// in English; the header's switch (?lang=ar&chosen=1) is remembered for
// addresses that say nothing, and answered by a redirect to the address
// with the language in it, the switch's mark gone. Choosing English
// forgets the choice.
func TestHandlerRemembersOnlyTheSwitch(t *testing.T) {
	var seen Locale
	h := Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { seen = From(r.Context()) }))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/places/x?lang=ar&digits=latn", nil))
	if seen != (Locale{Lang: Arabic, LatinDigits: true}) {
		t.Errorf("the context carries %+v", seen)
	}
	for _, c := range w.Result().Cookies() {
		if c.Name == LangParam {
			t.Errorf("?lang=ar in an address left a cookie %q: the plain address after it would open in Arabic", c.Value)
		}
	}

	w = httptest.NewRecorder()
	seen = Locale{}
	h.ServeHTTP(w, httptest.NewRequest("GET", "/places/x?q=1&lang=ar&"+ChosenParam+"=1", nil))
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/places/x?lang=ar&q=1" {
		t.Errorf("the switch answered %d, Location %q", w.Code, w.Header().Get("Location"))
	}
	if seen != (Locale{}) {
		t.Errorf("the switch served the page (%+v) rather than redirect", seen)
	}
	cookies := map[string]*http.Cookie{}
	for _, c := range w.Result().Cookies() {
		cookies[c.Name] = c
	}
	if c := cookies[LangParam]; c == nil || c.Value != "ar" || c.Path != "/" || c.MaxAge <= 0 {
		t.Errorf("the switch's choice was not kept: %+v", c)
	}

	w = httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/?lang=en&"+ChosenParam+"=1", nil))
	if c := w.Result().Cookies(); len(c) != 1 || c[0].Name != LangParam || c[0].MaxAge >= 0 {
		t.Errorf("choosing English did not forget the choice: %v", c)
	}

	w = httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/?q=unchosen=1&lang=ar", nil))
	if w.Code != http.StatusOK || len(w.Result().Cookies()) != 0 {
		t.Errorf("a search for %q was taken for the switch: %d", "unchosen=1", w.Code)
	}

	w = httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/?lang=nonsense&"+ChosenParam+"=1", nil))
	if len(w.Result().Cookies()) != 0 {
		t.Errorf("a language not offered was kept: %v", w.Result().Cookies())
	}
}

func TestSwitchURL(t *testing.T) {
	r := httptest.NewRequest("GET", "http://example.org/places/ocha:C1?lang=en&x=1", nil)
	if got := SwitchURL(r.URL, LangParam, "ar"); got != "/places/ocha:C1?chosen=1&lang=ar&x=1" {
		t.Errorf("SwitchURL = %s", got)
	}
}

func TestNamed(t *testing.T) {
	ar := Locale{Lang: Arabic}
	for _, c := range []struct{ got, want string }{
		{ar.Named("kind.", "town"), "بلدة"}, {Locale{}.Named("kind.", "town"), "town"},
		{ar.Named("kind.", "spaceport"), "spaceport"}, {ar.Named("kind.", ""), ""},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

// Package i18n is the interface's languages: one catalogue of every
// message a person reads (messages.json, which the server's pages and the
// browser's bundle both read), each in English and Arabic, with CLDR
// plural forms, and the numbers and dates written for a reader: Arabic-
// Indic or Latin digits, "حزيران/يونيو 2016" for June 2016.
package i18n

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

// Lang is an interface language.
type Lang string

// The interface's languages; English is the default.
const (
	English Lang = "en"
	Arabic  Lang = "ar"
)

// Pseudo is the pseudo-language of the catalogue's tests: every message
// comes out as ⟪key⟫, so that what a page says outside the markers is
// text the catalogue does not hold. No reader is offered it.
const Pseudo Lang = "qps"

// Langs are the languages every message has, in the order a chooser
// lists them.
var Langs = []Lang{English, Arabic}

// ParseLang reads a language code ("ar", "en"); ok is false for others.
func ParseLang(s string) (Lang, bool) {
	switch Lang(strings.ToLower(strings.TrimSpace(s))) {
	case English:
		return English, true
	case Arabic:
		return Arabic, true
	}
	return "", false
}

// Tag is the language's BCP 47 tag.
func (l Lang) Tag() language.Tag {
	if l == Arabic {
		return language.Arabic
	}
	return language.English
}

// Locale is how a page speaks to its reader: the language, and for
// Arabic whether numbers are written in Arabic-Indic digits (٠١٢) or in
// Latin ones (012). The zero Locale is English.
type Locale struct {
	Lang Lang
	// LatinDigits keeps an Arabic page's numbers in 0–9; by default they
	// are Arabic-Indic, as Syrian print writes them.
	LatinDigits bool
}

// Lang of a zero Locale is English.
func (l Locale) lang() Lang {
	if l.Lang == "" {
		return English
	}
	return l.Lang
}

// Code is the language's code for <html lang>.
func (l Locale) Code() string { return string(l.lang()) }

// Dir is the writing direction for <html dir>: "rtl" or "ltr".
func (l Locale) Dir() string {
	if l.lang() == Arabic {
		return "rtl"
	}
	return "ltr"
}

// Digits names the numbering system ("arab" or "latn"), as CLDR does.
func (l Locale) Digits() string {
	if l.arabicDigits() {
		return "arab"
	}
	return "latn"
}

func (l Locale) arabicDigits() bool { return l.lang() == Arabic && !l.LatinDigits }

// T is the message key in the locale's language, its {name} placeholders
// filled from args, given as name, value pairs. Numbers are written with
// the locale's digits; text is set apart from the sentence around it
// (Unicode isolates on a right-to-left page), so that a Latin name's
// punctuation cannot garble an Arabic sentence. A key the catalogue does
// not hold comes out as ⟦key⟧, which the catalogue's tests look for.
func (l Locale) T(key string, args ...any) string {
	m, ok := catalogue[key]
	if !ok {
		return "⟦" + key + "⟧"
	}
	if l.Lang == Pseudo {
		return "⟪" + key + "⟫"
	}
	return l.fill(m.text(l.lang(), l.form(args)), args)
}

// form is the plural form of the "n" argument, if any.
func (l Locale) form(args []any) string {
	for i := 0; i+1 < len(args); i += 2 {
		if args[i] == "n" {
			switch n := args[i+1].(type) {
			case int:
				return PluralForm(l.lang(), n)
			case int64:
				return PluralForm(l.lang(), int(n))
			}
		}
	}
	return "other"
}

// Named is the catalogue's name of a stored code — a place's kind, a
// precision — as the message prefix+code; a code the catalogue does not
// name is shown as it is, and none as nothing.
func (l Locale) Named(prefix, code string) string {
	if code == "" {
		return ""
	}
	if !Has(prefix + code) {
		return code
	}
	return l.T(prefix + code)
}

// PluralForm is the CLDR cardinal plural category of n in lang: "zero",
// "one", "two", "few", "many" or "other" (Arabic has all six, English
// one and other). The browser's Intl.PluralRules gives the same.
func PluralForm(lang Lang, n int) string {
	if n < 0 {
		n = -n
	}
	switch plural.Cardinal.MatchPlural(lang.Tag(), n, 0, 0, 0, 0) {
	case plural.Zero:
		return "zero"
	case plural.One:
		return "one"
	case plural.Two:
		return "two"
	case plural.Few:
		return "few"
	case plural.Many:
		return "many"
	}
	return "other"
}

func (l Locale) fill(s string, args []any) string {
	if !strings.Contains(s, "{") {
		return s
	}
	for i := 0; i+1 < len(args); i += 2 {
		name, _ := args[i].(string)
		s = strings.ReplaceAll(s, "{"+name+"}", l.Value(args[i+1]))
	}
	return s
}

// Value writes one argument of a message: numbers with the locale's
// digits (floats with two decimals), text isolated on a right-to-left
// page.
func (l Locale) Value(v any) string {
	switch v := v.(type) {
	case int:
		return l.Int(v)
	case int64:
		return l.Int(int(v))
	case float64:
		return l.Decimal(v, 2)
	case string:
		return l.Isolate(v)
	case fmt.Stringer:
		return l.Isolate(v.String())
	}
	return fmt.Sprint(v)
}

// Isolate sets text apart (FSI … PDI) on a right-to-left page, so that
// "(Syria) Aleppo" inside an Arabic sentence keeps its order and
// brackets; on a left-to-right page, and for empty text, it is as given.
func (l Locale) Isolate(s string) string {
	if l.Dir() != "rtl" || s == "" {
		return s
	}
	return "\u2068" + s + "\u2069"
}

// latinRun is a run of Latin words, numbers and the signs between them
// ("ISO 3166-1 alpha-2", "name=value", "CQL2").
var latinRun = regexp.MustCompile(`[A-Za-z0-9][\w.:/=+-]*(?:[ ,/]+[A-Za-z0-9][\w.:/=+-]*)*`)

// IsolateLatin sets each run of Latin text in s apart on a right-to-left
// page: the parameter names and values an API's documentation quotes
// inside an Arabic sentence keep their order and punctuation.
func (l Locale) IsolateLatin(s string) string {
	if l.Dir() != "rtl" {
		return s
	}
	return latinRun.ReplaceAllStringFunc(s, l.Isolate)
}

// Int writes n with the locale's digits and thousands separators:
// 12,345 or ١٢٬٣٤٥.
func (l Locale) Int(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	out := b.String()
	if neg {
		out = "-" + out
	}
	return l.Number(out)
}

// Year writes a year without separators: 2016 or ٢٠١٦.
func (l Locale) Year(y int) string { return l.Number(strconv.Itoa(y)) }

// Decimal writes f with places decimals: 0.95 or ٠٫٩٥.
func (l Locale) Decimal(f float64, places int) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return l.Number(strconv.FormatFloat(f, 'f', -1, 64))
	}
	return l.Number(strconv.FormatFloat(f, 'f', places, 64))
}

// Number rewrites a number written with Latin digits, "." for decimals
// and "," for thousands into the locale's digits and separators.
func (l Locale) Number(s string) string {
	if !l.arabicDigits() {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			b.WriteRune('٠' + (r - '0'))
		case r == '.':
			b.WriteRune('٫')
		case r == ',':
			b.WriteRune('٬')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// MonthName is the month's name: "June", or in Arabic the Levant's name
// with the international one, "حزيران/يونيو", as Syrian papers write it.
func (l Locale) MonthName(m time.Month) string {
	return l.T("month." + strconv.Itoa(int(m)))
}

// Date writes a date at its precision: the year alone (month 0), the
// month of a year (day 0), or the day: "19 September 2016",
// "١٩ أيلول/سبتمبر ٢٠١٦". A zero year is "".
func (l Locale) Date(year int, month time.Month, day int) string {
	switch {
	case year == 0:
		return ""
	case month == 0:
		return l.Year(year)
	case day == 0:
		return l.MonthName(month) + " " + l.Year(year)
	}
	return l.Number(strconv.Itoa(day)) + " " + l.MonthName(month) + " " + l.Year(year)
}

type localeKey struct{}

// With returns ctx carrying the locale, for the pages rendered under it.
func With(ctx context.Context, l Locale) context.Context {
	return context.WithValue(ctx, localeKey{}, l)
}

// From is the locale ctx carries (With, or Handler's); English when it
// carries none.
func From(ctx context.Context) Locale {
	switch l := ctx.Value(localeKey{}).(type) {
	case Locale:
		return l
	case func() Locale:
		return l()
	}
	return Locale{}
}

// T is From(ctx).T: the message as the page's reader reads it.
func T(ctx context.Context, key string, args ...any) string { return From(ctx).T(key, args...) }

// message is a catalogue entry: its text in each language, a plain
// string or, for a message that counts, one text per plural form.
type message map[Lang]text

// text is one language's text of a message: a string, or forms by
// plural category.
type text struct {
	s     string
	forms map[string]string
}

func (t *text) UnmarshalJSON(b []byte) error {
	if json.Unmarshal(b, &t.s) == nil {
		return nil
	}
	return json.Unmarshal(b, &t.forms)
}

func (m message) text(lang Lang, form string) string {
	t, ok := m[lang]
	if !ok {
		t = m[English]
	}
	if t.forms == nil {
		return t.s
	}
	if s, ok := t.forms[form]; ok {
		return s
	}
	return t.forms["other"]
}

//go:embed messages.json
var messagesJSON []byte

// catalogue is messages.json, read once; a malformed file stops the
// binary at start, and the package's tests say where.
var catalogue = func() map[string]message {
	var c map[string]message
	if err := json.Unmarshal(messagesJSON, &c); err != nil {
		panic("i18n: messages.json: " + err.Error())
	}
	return c
}()

// Has reports whether the catalogue holds key.
func Has(key string) bool { _, ok := catalogue[key]; return ok }

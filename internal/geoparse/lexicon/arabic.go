package lexicon

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// FoldArabic folds text for matching, never for display: the hamza forms
// of alif (أ إ آ ٱ) to ا, ى to ي, ة to ه, ؤ to و, ئ to ي, the Persian and
// Urdu letters ک and ی to ك and ي, Arabic-Indic and Persian digits to
// ASCII; it drops tatweel and the short-vowel marks, and lowers Latin
// letters. "دُومَا" and "دوما", "أيار" and "ايار" fold alike.
func FoldArabic(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r >= 0x064B && r <= 0x065F, r == 0x0670, r == 0x0640: // harakat, dagger alif, tatweel
		case r == 'أ' || r == 'إ' || r == 'آ' || r == 'ٱ':
			b.WriteRune('ا')
		case r == 'ى' || r == 'ئ' || r == 'ی':
			b.WriteRune('ي')
		case r == 'ة':
			b.WriteRune('ه')
		case r == 'ؤ':
			b.WriteRune('و')
		case r == 'ک':
			b.WriteRune('ك')
		case r >= '٠' && r <= '٩':
			b.WriteRune('0' + r - '٠')
		case r >= '۰' && r <= '۹':
			b.WriteRune('0' + r - '۰')
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// ArabicCountries maps country names and the adjectives made from them
// ("اللبنانية", Lebanese), folded, to the country's code as Countries
// has it.
var ArabicCountries = map[string]string{
	"سوريا": "SY", "سوريه": "SY", "السوريه": "SY", "السوري": "SY", "سوري": "SY",
	"لبنان": "LB", "اللبنانيه": "LB", "اللبناني": "LB", "لبناني": "LB", "لبنانيه": "LB",
	"تركيا": "TR", "التركيه": "TR", "التركي": "TR", "تركي": "TR", "تركيه": "TR",
	"الاردن": "JO", "الاردنيه": "JO", "الاردني": "JO", "اردني": "JO", "اردنيه": "JO",
	"العراق": "IQ", "العراقيه": "IQ", "العراقي": "IQ", "عراقي": "IQ", "عراقيه": "IQ",
	"اسرائيل": "IL", "فلسطين": "", "الفلسطينيه": "", "ايران": "", "روسيا": "", "مصر": "", "المانيا": "",
	"فرنسا": "", "اليونان": "",
}

// CountryCode returns the code of the country a name names — in English
// as Countries has it, or in Arabic, or by a city or province abroad the gazetteer
// lacks (PlacesAbroad) — and whether it is one.
func CountryCode(name string) (string, bool) {
	if code, ok := Countries[strings.ToLower(name)]; ok {
		return code, true
	}
	folded := FoldArabic(name)
	if code, ok := ArabicCountries[folded]; ok {
		return code, true
	}
	code, ok := PlacesAbroad[folded]
	return code, ok
}

// IsArabic reports whether r is of the Arabic script: the Arabic block,
// its supplement and the presentation forms.
func IsArabic(r rune) bool {
	return r >= 0x0600 && r <= 0x06FF || r >= 0x0750 && r <= 0x077F || r >= 0xFB50 && r <= 0xFEFF
}

// ArabicParticles are the one-letter words Arabic writes onto the next:
// and, so, in/by, to/of, like.
const ArabicParticles = "وفبلك"

// ArabicStems returns a folded Arabic word (FoldArabic) without the
// particles written onto it, one form for each taken off — two at most,
// each leaving three letters or more: "وبالرقه" gives "بالرقه" and
// "الرقه". li- before al- drops the alif, so "للرقه" gives "لرقه" and then
// the word with its article back, "الرقه". It is nil when none is written
// on. The gazetteer's scanner and the Arabic search both read words so.
func ArabicStems(w string) []string {
	var out []string
	rest := w
	for n := 0; n < 2; n++ {
		r, size := utf8.DecodeRuneInString(rest)
		if !strings.ContainsRune(ArabicParticles, r) || utf8.RuneCountInString(rest[size:]) < 3 {
			break
		}
		rest = rest[size:]
		out = append(out, rest)
		if r == 'ل' && strings.HasPrefix(rest, "ل") && utf8.RuneCountInString(rest) > 3 {
			return append(out, "ا"+rest)
		}
	}
	return out
}

// ArabicSearchForms are the forms a folded Arabic word (FoldArabic) is
// found by in a search: itself, without each particle written onto it
// (ArabicStems), and each of those without its article when a word of
// three letters or more is left ("وبالرقه": وبالرقه, بالرقه, الرقه,
// رقه), once each. The archive's search and a published site's index
// both file words so, and a search for "رقة" finds "الرقة" in either.
func ArabicSearchForms(w string) []string {
	forms := append([]string{w}, ArabicStems(w)...)
	for _, s := range forms {
		if strings.HasPrefix(s, "ال") && utf8.RuneCountInString(s) > 4 {
			forms = append(forms, strings.TrimPrefix(s, "ال"))
		}
	}
	out := forms[:0]
	for _, s := range forms {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// arabicResidents maps the adjective of a Syrian city's people, in its
// masculine singular (حلبي, of Aleppo), to the city's name as the
// gazetteer has it. The adjectives are irregular (حموي from حماة, رقاوي
// from الرقة), so they are listed, not derived.
var arabicResidents = map[string]string{
	"حلبي": "حلب", "حمصي": "حمص", "دمشقي": "دمشق", "إدلبي": "إدلب", "حموي": "حماة", "ديري": "دير الزور",
	"رقاوي": "الرقة", "درعاوي": "درعا", "لاذقاني": "اللاذقية", "طرطوسي": "طرطوس", "حسكاوي": "الحسكة",
	"قامشلاوي": "القامشلي", "منبجي": "منبج", "دوماني": "دوما", "تدمري": "تدمر", "سلمياوي": "السلمية",
}

// residentSuffixes are the endings of the adjective that name a city's
// people or a thing of theirs — feminine (حمصية) and plural (حلبيون,
// الحلبيين, حلبيات), folded. The masculine singular (الحلبي) is left out:
// it is as often a family name.
var residentSuffixes = []string{"يه", "يون", "يين", "يات"}

// ArabicResidentOf returns the city whose people a folded Arabic word
// names ("حلبيون", Aleppans; "أسرة حمصية", a Homs family), the article
// and particles already cut, and whether it names one.
func ArabicResidentOf(w string) (string, bool) {
	w = strings.TrimPrefix(w, "ال")
	for _, s := range residentSuffixes {
		if stem, ok := strings.CutSuffix(w, s); ok && utf8.RuneCountInString(stem) >= 2 {
			city, found := foldedResidents[stem+"ي"]
			return city, found
		}
	}
	return "", false
}

var foldedResidents = func() map[string]string {
	m := map[string]string{}
	for adj, city := range arabicResidents {
		m[FoldArabic(adj)] = city
	}
	return m
}()

package archive

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/syriamap/syriamap/internal/geoparse/lexicon"
)

// MentionKey folds the caption text a place was read from into the key of
// its review group: case, marks, articles, doubled vowels and a final h
// aside, so that "Al Mushayrifah", "MUSHAYRIFAH", "al-Mushayrifa" and
// "Mushayrifah" are one group, and "Sha'aar" and "Shaar" another. It is
// stricter than the gazetteer's folding, which reads "Sher" as a spelling
// of "Sha'aar" to find a place at all: a group is one decision an editor
// makes for all its photos, and two names the gazetteer holds apart (a
// village in Hama, a quarter of Aleppo) must never share one. A doubled
// consonant stays doubled, as Arabic's shadda tells names apart: "Al
// Masaddah" (المسدة) is not "Mas‘adah" (مسعدة).
func MentionKey(mention string) string {
	if strings.IndexFunc(mention, lexicon.IsArabic) >= 0 {
		var b strings.Builder
		for _, w := range strings.Fields(lexicon.FoldArabic(mention)) {
			b.WriteString(strings.TrimPrefix(w, "ال"))
		}
		return b.String()
	}
	var words []string
	for _, w := range strings.FieldsFunc(strings.ToLower(norm.NFD.String(mention)), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.Mn, r) && r != '\'' && r != '’' && r != 'ʿ' && r != '`'
	}) {
		if !mentionArticles[w] {
			words = append(words, w)
		}
	}
	var b strings.Builder
	var last rune
	for _, r := range strings.Join(words, "") {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) || r == last && strings.ContainsRune("aeiouy", r) {
			continue // marks, apostrophes and doubled vowels
		}
		b.WriteRune(r)
		last = r
	}
	key := strings.ReplaceAll(b.String(), "ou", "u")
	// A final h after a vowel is the Arabic ta marbuta: Mushayrifah is
	// Mushayrifa.
	if n := len(key); n > 3 && key[n-1] == 'h' && strings.IndexByte("aeiou", key[n-2]) >= 0 {
		key = key[:n-1]
	}
	return key
}

// mentionArticles are the Arabic article's spellings in Latin letters, as
// a word of their own ("Al Mushayrifah") or before a hyphen ("Deir
// ez-Zor").
var mentionArticles = map[string]bool{"al": true, "el": true, "ar": true, "as": true, "ash": true, "ad": true, "at": true,
	"az": true, "an": true, "ez": true, "es": true, "ed": true, "er": true, "et": true, "en": true, "ul": true}

package lexicon

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// SearchFold folds text as a caption search compares words: lower case,
// the accents off (é → e), the Arabic letter variants and marks folded
// (FoldArabic). A published site's index and script fold so
// (assets/src/fold.js), and so do the place spellings a search is widened
// by (gazetteer.SearchSpellings).
func SearchFold(text string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(text) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		b.WriteRune(r)
	}
	return FoldArabic(b.String())
}

// SearchWords are the folded words of text (SearchFold): runs of letters
// and numbers (any of Unicode's, 2½ and 3² as FTS5's tokenizer reads
// them).
func SearchWords(text string) []string {
	return strings.FieldsFunc(SearchFold(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
}

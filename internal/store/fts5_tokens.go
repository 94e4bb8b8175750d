package store

import (
	"sort"
	"strings"
	"unicode"
)

// fts5Tokens returns the words of text as SQLite's FTS5 reads them with
// its default tokenizer, unicode61 (remove_diacritics=1), in order: the
// runs of runes that are no separator (fts5Separators: spaces,
// punctuation, symbols, controls, marks), each rune folded (fts5Fold);
// a run that folds to nothing is no word. The PostgreSQL archive indexes
// and searches these tokens, so that a search finds there the photos
// FTS5 finds (TestFTS5TokensEveryRune, TestFTS5TokensOfCaptions).
func fts5Tokens(text string) []string {
	var toks []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			toks = append(toks, b.String())
			b.Reset()
		}
	}
	for _, r := range text {
		if r < 0x80 {
			switch {
			case 'a' <= r && r <= 'z' || '0' <= r && r <= '9':
				b.WriteRune(r)
			case 'A' <= r && r <= 'Z':
				b.WriteRune(r + 'a' - 'A')
			default:
				flush()
			}
			continue
		}
		if unicode.Is(fts5Separators, r) {
			flush()
			continue
		}
		if f := fts5Fold(r); f != 0 {
			b.WriteRune(f)
		}
	}
	flush()
	return toks
}

// fts5Fold is r as FTS5's unicode61 tokenizer writes it in a word: small,
// without a diacritic (fts5Folds); 0 for a combining diacritic, which it
// leaves out.
func fts5Fold(r rune) rune {
	i := sort.Search(len(fts5Folds), func(i int) bool { return fts5Folds[i][0] >= r })
	if i < len(fts5Folds) && fts5Folds[i][0] == r {
		return fts5Folds[i][1]
	}
	return r
}

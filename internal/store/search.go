package store

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/syriamap/syriamap/internal/photo"
)

// Limits on a full-text search, so that no search can hold the archive for
// long: FTS5 builds the whole list of matching rows for each prefix term,
// and a one-letter prefix matches nearly every caption (about 150 ms a
// term over 200,000 photos, so 100 of them took 25 s). Two letters cut
// that tenfold; the limits bound the rest.
const (
	maxSearchBytes = 300
	maxSearchTerms = 16
	maxPrefixTerms = 4
	minPrefixRunes = 2
)

// The messages of a search refused, fmt's verbs in the order given (a
// published site's script formats the same strings: SearchRulesOf).
const (
	searchBytesMessage    = "the search is %d bytes long; at most %d"
	searchPrefixMessage   = "a prefix search needs at least %d letters before the * (%q)"
	searchTermsMessage    = "the search has %d terms; at most %d"
	searchPrefixesMessage = "the search has %d prefix terms (word*); at most %d"
	searchSyntaxMessage   = "“%s” is not a valid full-text search: use words, \"phrases\" in pairs of quotes, OR, NOT, prefix*"
)

// searchOperators are FTS5's operators, which are no terms of a search.
var searchOperators = []string{"AND", "OR", "NOT", "NEAR"}

// SearchRulesOf returns the search's rules.
func SearchRulesOf() SearchRules {
	return SearchRules{MaxBytes: maxSearchBytes, MaxTerms: maxSearchTerms, MaxPrefixTerms: maxPrefixTerms, MinPrefixRunes: minPrefixRunes,
		Messages: map[string]string{"bytes": searchBytesMessage, "prefix": searchPrefixMessage, "terms": searchTermsMessage,
			"prefixes": searchPrefixesMessage, "syntax": searchSyntaxMessage}, Operators: searchOperators}
}

// CheckSearch reports, as an invalid-input error naming q, a full-text
// search over the limits: too long, too many terms or prefix terms, or a
// prefix shorter than two letters. It does not check FTS5's syntax, which
// the store's reading of the search does on either engine (parseSearch).
func CheckSearch(q string) error {
	if len(q) > maxSearchBytes {
		return photo.ParamErrorf("q", searchBytesMessage, len(q), maxSearchBytes)
	}
	terms, prefixes := 0, 0
	for _, t := range searchTerms(q) {
		terms++
		word, isPrefix := strings.CutSuffix(t, "*")
		if !isPrefix {
			continue
		}
		prefixes++
		if n := utf8.RuneCountInString(strings.TrimFunc(word, notWordRune)); n < minPrefixRunes {
			return photo.ParamErrorf("q", searchPrefixMessage, minPrefixRunes, t)
		}
	}
	switch {
	case terms > maxSearchTerms:
		return photo.ParamErrorf("q", searchTermsMessage, terms, maxSearchTerms)
	case prefixes > maxPrefixTerms:
		return photo.ParamErrorf("q", searchPrefixesMessage, prefixes, maxPrefixTerms)
	}
	return nil
}

// notWordRune reports whether r is no letter and no number (FTS5's
// tokenizer keeps every number in a word: 2½, 3², Ⅻ; not only 0–9).
func notWordRune(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) }

// searchTerms splits an FTS5 query into its terms: bare words and the
// words of "phrases" (a phrase's last word keeps a * that follows the
// phrase), leaving out the operators AND, OR, NOT and NEAR, parentheses,
// column filters (caption:) and the ^ that anchors a term.
func searchTerms(q string) []string {
	var terms []string
	for i := 0; i < len(q); {
		c := q[i]
		switch {
		case c == '"':
			end := strings.IndexByte(q[i+1:], '"')
			if end < 0 {
				end = len(q) - i - 1
			}
			words := strings.Fields(q[i+1 : i+1+end])
			i += end + 2
			if i <= len(q) && i < len(q) && q[i] == '*' && len(words) > 0 {
				words[len(words)-1] += "*"
				i++
			}
			terms = append(terms, words...)
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '(' || c == ')' || c == '+' || c == ',':
			i++
		default:
			j := i
			for j < len(q) && !strings.ContainsRune(" \t\n\r()\"+,", rune(q[j])) {
				j++
			}
			word := q[i:j]
			i = j
			if _, after, ok := strings.Cut(word, ":"); ok {
				word = after // a column filter
			}
			word = strings.TrimPrefix(word, "^")
			if word == "" || slices.Contains(searchOperators, word) {
				continue
			}
			terms = append(terms, word)
		}
	}
	return terms
}

// ftsQuery reads a caption search as FTS5 takes it. Punctuation that is
// no part of a search's syntax — commas, full stops, colons, slashes,
// hyphens, apostrophes, Arabic commas — is a space, as the index's
// tokenizer reads it between words, so that "Aleppo, Syria, December 13"
// finds the captions with those words instead of failing; "phrases"
// (in straight, curly or angle quotes), OR, AND, NOT, prefix* and
// brackets keep their meaning. A number is any of Unicode's (2½, 3², ٣,
// Ⅻ), as FTS5's tokenizer reads it inside a word: a search for "2½"
// finds the captions that say 2½. The published site's search splits words
// the same way (assets/src/staticapi.js), and the conformance suite runs
// such queries against both.
func ftsQuery(q string) string {
	var b strings.Builder
	quoted := false
	for _, r := range q {
		switch {
		case r == '"' || r == '“' || r == '”' || r == '«' || r == '»':
			quoted = !quoted
			b.WriteByte('"')
		case quoted:
			b.WriteRune(r)
		case r == '*' || r == '(' || r == ')' || r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Mn, r):
			b.WriteRune(r)
		default:
			b.WriteByte(' ')
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

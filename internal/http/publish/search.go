package publish

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/geoparse/lexicon"
)

// searchIndex is the static full-text index the page loads on its first
// search: each word of the captions with the photos (their numbers in the
// points' order) whose caption has it. Words are folded as the page folds
// what a reader types (searchFold; assets/src/staticapi.js): lower case,
// accents off, the Arabic letter variants as one; an Arabic word is also
// filed under its other search forms (lexicon.ArabicSearchForms: وحلب
// under حلب, الرقة under رقة), as the archive's Arabic search files it.
type searchIndex struct {
	words map[string][]int32
}

func newSearchIndex() *searchIndex { return &searchIndex{words: map[string][]int32{}} }

func (x *searchIndex) add(k int32, caption string) {
	for _, w := range searchWords(caption) {
		list := x.words[w]
		if n := len(list); n == 0 || list[n-1] != k {
			x.words[w] = append(list, k)
		}
		if lexicon.IsArabic([]rune(w)[0]) {
			for _, form := range lexicon.ArabicSearchForms(w)[1:] {
				list := x.words[form]
				if n := len(list); n == 0 || list[n-1] != k {
					x.words[form] = append(list, k)
				}
			}
		}
	}
}

// spellings is the archive's table of place spellings (all) without the
// places none of whose spellings the index files: what a site's search
// needs to read a search as the archive does (search.js widen).
func (x *searchIndex) spellings(all *gazetteer.SearchSpellings) *gazetteer.SearchSpellings {
	return all.Holding(func(w string) bool { return len(x.words[w]) > 0 })
}

// shardOf is the piece of the index a word is filed in: its first letter.
// A search loads the pieces of its words' first letters, not the whole
// index (a prefix search's words share its first letter too).
func shardOf(word string) string {
	r, _ := utf8.DecodeRuneInString(word)
	return strconv.FormatInt(int64(r), 36)
}

// shards writes the index as pieces by first letter (shardOf), each
// {"words": {word: [first, gap, gap, …]}}: each list as the gaps between
// numbers, which are small.
func (x *searchIndex) shards() map[string][]byte {
	byShard := map[string]map[string][]int32{}
	for w, list := range x.words {
		gaps := make([]int32, len(list))
		prev := int32(0)
		for i, k := range list {
			gaps[i] = k - prev
			prev = k
		}
		key := shardOf(w)
		if byShard[key] == nil {
			byShard[key] = map[string][]int32{}
		}
		byShard[key][w] = gaps
	}
	out := make(map[string][]byte, len(byShard))
	for key, words := range byShard {
		b, _ := json.Marshal(map[string]any{"words": words}) // maps marshal in key order
		out[key] = b
	}
	return out
}

// searchWords are the folded words of text (lexicon.SearchWords).
func searchWords(text string) []string { return lexicon.SearchWords(text) }

// searchFold is lexicon.SearchFold.
func searchFold(text string) string { return lexicon.SearchFold(text) }

// agencyKeys are the keys (lexicon.AgencyKey) that name the agencies ids
// holds, with their IDs: a search that names a source finds its photos
// whatever their captions say, as the server's does (store's where), and
// the page looks the search up here (search.js searchAgency).
func agencyKeys(ids map[string]bool) map[string]string {
	out := map[string]string{}
	for k, id := range lexicon.AgencyKeys() {
		if ids[id] {
			out[k] = id
		}
	}
	return out
}

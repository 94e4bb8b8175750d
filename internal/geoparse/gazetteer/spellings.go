package gazetteer

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/syriamap/syriamap/internal/geoparse/lexicon"
)

// SearchSpellings is the table by which a caption search reads the place
// names among its words as the places they name: "Raqqa", "Raqqah",
// "ar-Raqqah", "الرقة" and "بالرقة" all find the photos whose captions
// spell Raqqa in any of those ways. The archive's search (the store,
// through archive.New) and a published site's script
// (assets/src/search.js widen, over the table as JSON) both read searches
// by it, and TestSiteVectors holds them to the same answers.
//
// A SearchSpellings is read-only once made and safe for concurrent use.
type SearchSpellings struct {
	// Keys are the search keys of the spellings (SearchKey), each with the
	// group of the place the name most likely means (see better).
	Keys map[string]int `json:"keys"`
	// Groups are the places named, each with its spellings.
	Groups []Spelled `json:"groups"`
}

// Spelled is a place and the spellings of its name a search finds as
// one: the spellings of its English name and of its Arabic name, as
// written (Latin first, then Arabic), and the same as searches
// (SearchKey, one per spelling, a spelling of several words one search
// of them all).
type Spelled struct {
	Place  string   `json:"place"`
	Names  []string `json:"names"`
	Search []string `json:"search"`
}

// maxLatin and maxArabic bound the spellings a name is widened to in
// each script (each one more look-up in the index).
const (
	maxLatin  = 10
	maxArabic = 4
)

// maxNameWords is the most words a name read in a search has.
const maxNameWords = 4

// SearchKey is a name as a search compares it: its words as
// lexicon.SearchWords folds them, one space between.
func SearchKey(name string) string { return strings.Join(lexicon.SearchWords(name), " ") }

// NewSearchSpellings makes the table of the places keep holds (all when
// keep is nil), in the gazetteer's order.
func (g *Gazetteer) NewSearchSpellings(keep func(*Place) bool) *SearchSpellings {
	s := &SearchSpellings{Keys: map[string]int{}}
	owner := map[string]*Place{}
	for i := range g.places {
		p := &g.places[i]
		if keep != nil && !keep(p) {
			continue
		}
		sp, keys := spellingsOf(p)
		if len(sp.Names) < 2 {
			continue
		}
		group := -1
		for _, key := range keys {
			if !searchable(key) || owner[key] != nil && !better(p, owner[key]) {
				continue
			}
			if group < 0 {
				group = len(s.Groups)
				s.Groups = append(s.Groups, sp)
			}
			s.Keys[key], owner[key] = group, p
		}
	}
	return s.pruned()
}

// pruned leaves out the groups no key names any more (another place took
// their keys), numbering the rest again.
func (s *SearchSpellings) pruned() *SearchSpellings {
	used := make([]bool, len(s.Groups))
	for _, g := range s.Keys {
		used[g] = true
	}
	renumber := make([]int, len(s.Groups))
	out := &SearchSpellings{Keys: make(map[string]int, len(s.Keys))}
	for i, sp := range s.Groups {
		if used[i] {
			renumber[i] = len(out.Groups)
			out.Groups = append(out.Groups, sp)
		}
	}
	for k, g := range s.Keys {
		out.Keys[k] = renumber[g]
	}
	return out
}

// spellingsOf are the names of p that spell its English or its Arabic
// name (SameName): "Raqqah", "Ar-Raqqah", "الرقة" for Raqqa, but not
// "Nicephorium" or "Raqqa District" (the first maxLatin and maxArabic);
// and the search keys of them all, by which a search finds the place. A
// spelling of several words one of which is another spelling ("ar
// Raqqah" beside "Raqqah") is no search of its own: it finds no more.
func spellingsOf(p *Place) (sp Spelled, keys []string) {
	refs := []Key{Fold(p.Name)}
	if p.NameAr != "" {
		refs = append(refs, Fold(p.NameAr))
	}
	var latin, arabic []string
	seen := map[string]bool{}
	for _, n := range p.AllNames() {
		k := Fold(n)
		if !slices.ContainsFunc(refs, func(r Key) bool { return SameName(k, r) || SameName(r, k) }) {
			continue
		}
		key := SearchKey(n)
		if key == "" || seen[key] || strings.Count(key, " ") >= maxNameWords || brokenWord(key) {
			continue
		}
		seen[key] = true
		switch r, _ := utf8.DecodeRuneInString(key); {
		case lexicon.IsArabic(r):
			arabic = append(arabic, n)
		case n == p.Name || strings.ToLower(n) != n:
			// A name all in lower case is a machine's romanisation
			// ("damasakasa"), no spelling of a caption's.
			latin = append(latin, n)
		}
	}
	for _, n := range append(latin, arabic...) {
		keys = append(keys, SearchKey(n))
	}
	sp = Spelled{Place: p.ID, Names: append(latin[:min(len(latin), maxLatin)], arabic[:min(len(arabic), maxArabic)]...)}
	for _, n := range sp.Names {
		k := withoutArticles(SearchKey(n))
		if words := strings.Fields(k); (len(words) == 1 || !slices.ContainsFunc(words, func(w string) bool { return slices.Contains(keys, w) })) &&
			!slices.Contains(sp.Search, k) {
			sp.Search = append(sp.Search, k)
		}
	}
	return sp, keys
}

// latinArticles are the Arabic article as Latin spellings write it apart.
var latinArticles = []string{"al", "el", "ar", "er", "as", "es", "ad", "ed", "az", "ez", "at", "et", "an", "en", "ul", "ash", "ath", "adh"}

// withoutArticles is a search key of several words without the article
// among them, when two words or more are left ("deir ez zor" and "deir
// al zor" are both "deir zor"): a search of the other words finds every
// way of writing it, and cheaper (the article is in most captions).
func withoutArticles(key string) string {
	words := strings.Fields(key)
	kept := slices.DeleteFunc(slices.Clone(words), func(w string) bool { return slices.Contains(latinArticles, w) })
	if len(kept) < 2 || len(kept) == len(words) {
		return key
	}
	return strings.Join(kept, " ")
}

// brokenWord reports whether a name's key has a word of one Arabic
// letter: a name broken in two by a stray space ("د مشق"), no spelling.
func brokenWord(key string) bool {
	for _, w := range strings.Fields(key) {
		if r, size := utf8.DecodeRuneInString(w); size == len(w) && lexicon.IsArabic(r) {
			return true
		}
	}
	return false
}

// searchable reports whether a search word or words that are key are read
// as a place's name: three letters or more, and no word no name starts
// with ("the", "army"): a search for a common word stays that word.
func searchable(key string) bool {
	first, _, _ := strings.Cut(key, " ")
	return utf8.RuneCountInString(key) >= 3 && !isStopWord(first)
}

// better reports whether p is more likely than q the place a name both
// bear means: a city, town or village before an area (the city of Raqqa,
// not the governorate's centroid), then the more prominent.
func better(p, q *Place) bool {
	if p.Kind.Populated() != q.Kind.Populated() {
		return p.Kind.Populated()
	}
	return Prominence(p) > Prominence(q)
}

// Widened is a search read by the table: its parts, each the search keys
// one of which a caption must hold (a word of the search as written, or
// a place's spellings), and the places named.
type Widened struct {
	Parts   [][]string
	Spelled []Spelled
}

// Widen reads a caption search q, its punctuation as spaces (as the
// store's ftsQuery cleans it): when
// it is words alone (no "phrase", operator, bracket or prefix*) and one
// run of its words (up to four) is a place's name, the name is widened to
// the place's spellings. An Arabic word is also read without the
// particles written onto it (بالرقة as الرقة; lexicon.ArabicStems). ok is
// false when q is no such search, or names no place: it is searched as
// it is.
func (s *SearchSpellings) Widen(q string) (w Widened, ok bool) {
	// Punctuation is a space, as the index reads it ("ar-Raqqah").
	q = strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Mn, r) || strings.ContainsRune("*()_\"“”«»", r) {
			return r
		}
		return ' '
	}, q)
	if s == nil || strings.ContainsAny(q, "\"*()_“”«»") {
		return w, false
	}
	tokens := strings.Fields(q)
	words := make([]string, len(tokens))
	for i, t := range tokens {
		ws := lexicon.SearchWords(t)
		if len(ws) != 1 || t == "AND" || t == "OR" || t == "NOT" || t == "NEAR" {
			return w, false
		}
		words[i] = ws[0]
	}
	for i := 0; i < len(words); {
		g, n, key := s.nameAt(words, i)
		if n == 0 {
			w.Parts = append(w.Parts, []string{tokens[i]})
			i++
			continue
		}
		sp := s.Groups[g]
		part := sp.Search
		// The name as typed is searched too, should it be a spelling past
		// those the place's search holds (maxLatin).
		if key = withoutArticles(key); !slices.ContainsFunc(strings.Fields(key), func(w string) bool { return slices.Contains(part, w) }) &&
			!slices.Contains(part, key) {
			part = append(slices.Clip(part), key)
		}
		w.Parts = append(w.Parts, part)
		if !slices.ContainsFunc(w.Spelled, func(x Spelled) bool { return x.Place == sp.Place }) {
			w.Spelled = append(w.Spelled, sp)
		}
		ok = true
		i += n
	}
	return w, ok
}

// Holding is the table without the places none of whose spellings a
// caption holds (has reports whether one holds a search word): a
// published site's, which need carry only what can change an answer. A
// search naming a place left out finds the same photos on either side
// (none by its spellings); only the "also spelled" note is the
// archive's alone.
func (s *SearchSpellings) Holding(has func(word string) bool) *SearchSpellings {
	held := make([]bool, len(s.Groups))
	for k, g := range s.Keys {
		if !held[g] && !slices.ContainsFunc(strings.Fields(k), func(w string) bool { return !has(w) }) {
			held[g] = true
		}
	}
	for g, sp := range s.Groups {
		if !held[g] && slices.ContainsFunc(sp.Search, func(search string) bool {
			return !slices.ContainsFunc(strings.Fields(search), func(w string) bool { return !has(w) })
		}) {
			held[g] = true
		}
	}
	out := &SearchSpellings{Keys: map[string]int{}, Groups: s.Groups}
	for k, g := range s.Keys {
		if held[g] {
			out.Keys[k] = g
		}
	}
	return out.pruned()
}

// nameAt is the group of the longest run of words from i that is a
// place's name, how many words it takes (0 for none) and its key.
func (s *SearchSpellings) nameAt(words []string, i int) (group, n int, key string) {
	firsts := []string{words[i]}
	if r, _ := utf8.DecodeRuneInString(words[i]); lexicon.IsArabic(r) {
		firsts = append(firsts, lexicon.ArabicStems(words[i])...)
	}
	for n := min(maxNameWords, len(words)-i); n >= 1; n-- {
		rest := strings.Join(words[i+1:i+n], " ")
		for _, first := range firsts {
			key := first
			if rest != "" {
				key += " " + rest
			}
			if g, ok := s.Keys[key]; ok {
				return g, n, key
			}
		}
	}
	return 0, 0, ""
}

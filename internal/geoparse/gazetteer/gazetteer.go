package gazetteer

import (
	"fmt"
	"maps"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/paulmach/orb/geo"

	"github.com/syriamap/syriamap/internal/geoparse/textdist"
)

// Gazetteer is an in-memory index of places by id and by folded name.
type Gazetteer struct {
	places []Place
	byID   map[string]int
	byKey  map[string][]nameRef // skeleton → names
	govs   map[string]int       // governorate P-code → its entry
	trie   trie
	// keys are each place's names folded, kept so that a gazetteer made
	// from this one (With) folds only what changed.
	keys [][]Key
	// parts index the quarters by the words of their names (see
	// QuarterByPart).
	parts partIndex
}

type nameRef struct {
	place      int32
	fine       string
	consonants int
	letters    letterSet
	// next is the index, among its trie node's refs sorted by fine form,
	// of the first ref with another fine form: each distinct spelling is
	// measured once.
	next int32
}

// letterSet is the set of bytes a fine form uses, folded onto 64 bits.
// Each byte one spelling uses and the other lacks costs at least one edit,
// so two sets bound the edit distance from below for the price of a
// popcount (two bytes sharing a bit only loosen the bound).
type letterSet uint64

func lettersOf[S string | []byte](s S) letterSet {
	var set letterSet
	for i := 0; i < len(s); i++ {
		set |= 1 << (s[i] & 63)
	}
	return set
}

// minEdits is the fewest edits that can turn a spelling using set a into
// one using set b.
func minEdits(a, b letterSet) int {
	return max(bits.OnesCount64(uint64(a&^b)), bits.OnesCount64(uint64(b&^a)))
}

// New indexes places. It returns an error naming the first entry that is
// invalid: an empty or repeated id, an unknown kind, a point out of range or
// a parent that is not in the list.
func New(places []Place) (*Gazetteer, error) { return build(places, nil) }

// With is a new gazetteer of places, most of them this one's (an
// archive's, with the places its editors added and the spellings they
// taught): the names of a place this one has, unchanged, are not folded
// again, which is most of the work (an editor's place added in a
// fraction of the time).
func (g *Gazetteer) With(places []Place) (*Gazetteer, error) { return build(places, g) }

func build(places []Place, prev *Gazetteer) (*Gazetteer, error) {
	g := &Gazetteer{places: places, byID: make(map[string]int, len(places)), govs: map[string]int{}}
	for i := range places {
		p := &places[i]
		switch {
		case p.ID == "":
			return nil, fmt.Errorf("gazetteer: entry %d (%q) has no id", i, p.Name)
		case !p.Kind.Valid():
			return nil, fmt.Errorf("gazetteer: %s has unknown kind %q", p.ID, p.Kind)
		case p.Located && (p.Point.Lon() < -180 || p.Point.Lon() > 180 || p.Point.Lat() < -90 || p.Point.Lat() > 90):
			return nil, fmt.Errorf("gazetteer: %s has point %v out of range", p.ID, p.Point)
		}
		for _, id := range p.IDs() {
			if _, dup := g.byID[id]; dup {
				return nil, fmt.Errorf("gazetteer: id %s is repeated (at %s)", id, p.ID)
			}
			g.byID[id] = i
		}
		if p.Kind == Governorate && p.Governorate.PCode != "" {
			g.govs[p.Governorate.PCode] = i
		}
		p.prominence = prominence(p)
	}
	for i := range places {
		if p := &places[i]; p.Parent != "" {
			if _, ok := g.byID[p.Parent]; !ok {
				return nil, fmt.Errorf("gazetteer: %s has unknown parent %s", p.ID, p.Parent)
			}
		}
	}
	g.keys = foldAll(places, prev)
	from := 0 // the first place whose names go into the index
	if prev != nil && extends(prev, places) {
		// prev's index holds the names of places[:len(prev.places)]: it is
		// shared, and only what the new places add is copied (each slice
		// appended to is clipped first, so prev's stays as it was).
		from = len(prev.places)
		g.byKey = maps.Clone(prev.byKey)
		g.trie = trie{nodes: slices.Grow(slices.Clone(prev.trie.nodes), 64), root: prev.trie.root, cow: true}
	} else {
		size := 0
		for _, ks := range g.keys {
			for _, k := range ks {
				size += len(k.Skeleton)
			}
		}
		g.byKey = make(map[string][]nameRef)
		g.trie.nodes = make([]trieNode, 1, max(1, size/2)) // node 0 is the root
	}
	touched := map[int32]bool{}
	for i := from; i < len(places); i++ {
		for _, k := range g.keys[i] {
			ref := nameRef{place: int32(i), fine: k.Fine, consonants: k.Consonants, letters: lettersOf(k.Fine)}
			g.byKey[k.Skeleton] = append(slices.Clip(g.byKey[k.Skeleton]), ref)
			if n := g.trie.insert(k.Skeleton, ref); from > 0 {
				touched[n] = true
			}
		}
	}
	// Each node's names by fine form, so that Scan finds the exact ones by
	// binary search and measures each other spelling once.
	for n := range g.trie.nodes {
		if from == 0 || touched[int32(n)] {
			sortRefs(g.trie.nodes[n].refs)
		}
	}
	g.trie.cow = false
	return g, nil
}

// extends reports whether places begin with prev's, by the same names:
// prev's index of names then holds theirs.
func extends(prev *Gazetteer, places []Place) bool {
	if len(places) < len(prev.places) {
		return false
	}
	for i := range prev.places {
		if places[i].ID != prev.places[i].ID || !sameNames(&places[i], &prev.places[i]) {
			return false
		}
	}
	return true
}

// sortRefs sorts a trie node's names by fine form and links each to the
// first of the next spelling.
func sortRefs(refs []nameRef) {
	slices.SortStableFunc(refs, func(a, b nameRef) int { return strings.Compare(a.fine, b.fine) })
	for a := 0; a < len(refs); {
		b := a + 1
		for b < len(refs) && refs[b].fine == refs[a].fine {
			b++
		}
		for k := a; k < b; k++ {
			refs[k].next = int32(b)
		}
		a = b
	}
}

// foldAll folds every name of every place, on as many goroutines as
// there are cores (folding is most of a start-up's work), and returns each
// place's distinct keys.
func foldAll(places []Place, prev *Gazetteer) [][]Key {
	keys := make([][]Key, len(places))
	if prev != nil {
		for i := range places {
			if j, ok := prev.byID[places[i].ID]; ok && prev.places[j].ID == places[i].ID && sameNames(&prev.places[j], &places[i]) {
				keys[i] = prev.keys[j]
			}
		}
	}
	workers := max(1, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(places); i += workers {
				if keys[i] != nil {
					continue // the previous gazetteer's
				}
				p := &places[i]
				names := p.AllNames()
				ks := make([]Key, 0, len(names))
				for _, name := range names {
					if k := Fold(name); k.Skeleton != "" && !slices.Contains(ks, k) {
						ks = append(ks, k)
					}
				}
				keys[i] = ks
			}
		}()
	}
	wg.Wait()
	return keys
}

// sameNames reports whether two entries have the same names.
func sameNames(a, b *Place) bool {
	return a.Name == b.Name && a.NameAr == b.NameAr && slices.Equal(a.Names, b.Names)
}

// Load reads a gazetteer from its table (see Encode).
func Load(data []byte) (*Gazetteer, error) {
	places, err := Decode(data)
	if err != nil {
		return nil, err
	}
	return New(places)
}

// appendFine appends the fine form of the name toks[i..j] spells: its
// words' fine forms, the articles inside it left out.
func appendFine(dst []byte, toks []token, i, j int) []byte {
	for k := i; k <= j; k++ {
		if !toks[k].article {
			dst = appendCollapsed(dst, toks[k].fine)
		}
	}
	return dst
}

// nameStart is where a name beginning at toks[i] starts in the text: at
// its capitalised article, when one is joined to it ("Al-Bab").
func nameStart(toks []token, i int) int {
	if i > 0 && toks[i-1].article && toks[i-1].upper && !toks[i].broken {
		return toks[i-1].start
	}
	return toks[i].start
}

// appendHits appends a hit like span for each place a trie node's refs
// name by the fine form fine: the exact spellings, a run found by binary
// search (refs are sorted by fine form), then each other distinct spelling
// close enough, measured once.
func (g *Gazetteer) appendHits(dst []Hit, refs []nameRef, fine []byte, span Hit) []Hit {
	lo, hi := fineRun(refs, fine)
	letters := lettersOf(fine)
	for k := lo; k < hi; k++ {
		h := span
		h.Place, h.Exact = &g.places[refs[k].place], true
		dst = append(dst, h)
	}
	for a := 0; a < len(refs); {
		b := int(refs[a].next)
		if (a != lo || lo == hi) && closeSpelling(refs[a], fine, letters) {
			for k := a; k < b; k++ {
				h := span
				h.Place = &g.places[refs[k].place]
				dst = append(dst, h)
			}
		}
		a = b
	}
	return dst
}

// Len returns the number of places.
func (g *Gazetteer) Len() int { return len(g.places) }

// Places returns every place, in the gazetteer's order. Callers must not
// modify them.
func (g *Gazetteer) Places() []Place { return g.places }

// ByID returns the place with the given id, or nil when there is none.
// Any id of a merged place finds it (see Place.Refs).
func (g *Gazetteer) ByID(id string) *Place {
	if i, ok := g.byID[id]; ok {
		return &g.places[i]
	}
	return nil
}

// Lookup returns the places one of whose names is a spelling of name (see
// Fold), the most prominent first (see Prominence), Syrian places before
// others as prominent, then by id. It returns nil when none is.
func (g *Gazetteer) Lookup(name string) []*Place {
	k := Fold(name)
	var out []*Place
	seen := map[int32]bool{}
	for _, ref := range g.byKey[k.Skeleton] {
		if seen[ref.place] || !sameName(ref, k.Consonants, k.Fine) {
			continue
		}
		seen[ref.place] = true
		out = append(out, &g.places[ref.place])
	}
	sort.SliceStable(out, func(i, j int) bool {
		if pi, pj := Prominence(out[i]), Prominence(out[j]); pi != pj {
			return pi > pj
		}
		if si, sj := out[i].Country == "SY", out[j].Country == "SY"; si != sj {
			return si
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// Prominence ranks how likely a place is the one a name means when
// several share it, from 0: a city or governorate over a town or region
// over a village, a place in the curated list of war-reported places over
// others, and, among equals, the more populous.
func Prominence(p *Place) float64 {
	if p.prominence > 0 {
		return p.prominence
	}
	return prominence(p)
}

func prominence(p *Place) float64 {
	var k float64
	switch p.Kind {
	case City, Governorate:
		k = 6
	case Town, Region:
		k = 4
	case Camp, Crossing, Landmark, District:
		k = 3
	case Neighbourhood, Subdistrict:
		k = 2
	case Village:
		k = 1
	}
	if p.Curated() {
		k += 1.5
	}
	return k + math.Log10(float64(p.Population)+1)/2
}

// closeSpelling reports whether words whose skeleton matched ref but whose
// fine form differs still spell it: the skeleton must have three consonants
// or more, and the fine forms be a few edits apart (Kafranbel, Kafr Nabl),
// which keeps Syrian from Sharan and Jobar from Jebru.
func closeSpelling(ref nameRef, fine []byte, letters letterSet) bool {
	if ref.consonants <= 2 {
		return false
	}
	max := max(1, 3*max(len(fine), len(ref.fine))/10)
	if d := len(fine) - len(ref.fine); d > max || -d > max {
		return false // the edit distance is at least the difference in length
	}
	if minEdits(letters, ref.letters) > max {
		return false
	}
	return textdist.Distance(string(fine), ref.fine, max) <= max
}

// sameName reports whether a name whose skeleton matched ref is a spelling
// of it: short skeletons are too loose alone, so their fine forms must match.
func sameName(ref nameRef, consonants int, fine string) bool {
	return ref.fine == fine || consonants > 2 && closeSpelling(ref, []byte(fine), lettersOf(fine))
}

// Contains reports whether place p lies within place q by the gazetteer's
// own links: q is p's parent (or an ancestor), or q is the governorate p is
// in.
func (g *Gazetteer) Contains(q, p *Place) bool {
	if q.Kind == Governorate && p.Governorate.PCode != "" && p.Governorate.PCode == q.Governorate.PCode && p != q {
		return true
	}
	for depth, id := 0, p.Parent; id != "" && depth < 8; depth++ {
		if id == q.ID {
			return true
		}
		id = g.ByID(id).Parent
	}
	return false
}

// crossingPairKm is how far apart the two sides of one border crossing
// may lie: each country's gate stands a few km from the other's.
const crossingPairKm = 8

// OtherSide returns the other country's gate of the border crossing p (the
// Turkish Cilvegözü for the Syrian Bab al-Hawa and back): the nearest
// located crossing of another country within crossingPairKm, or nil.
func (g *Gazetteer) OtherSide(p *Place) *Place {
	if p.Kind != Crossing || !p.Located {
		return nil
	}
	var best *Place
	bestKm := float64(crossingPairKm)
	for i := range g.places {
		q := &g.places[i]
		if q.Kind != Crossing || !q.Located || q.Country == p.Country {
			continue
		}
		if km := geo.Distance(p.Point, q.Point) / 1000; km <= bestKm {
			best, bestKm = q, km
		}
	}
	return best
}

// GovernorateOf returns the governorate entry p lies in, or nil for places
// outside Syria.
func (g *Gazetteer) GovernorateOf(p *Place) *Place {
	if i, ok := g.govs[p.Governorate.PCode]; ok && p.Governorate.PCode != "" {
		return &g.places[i]
	}
	return nil
}

// Hit is a run of words in a text that spells a place's name.
type Hit struct {
	// Start and End are byte offsets of the matched words in the text,
	// including a capitalised article just before them ("Ar Raqqah").
	Start, End int
	Place      *Place
	// Exact is true when the words spell the name closely (equal fine
	// forms), false when only the consonant skeletons agree.
	Exact bool
	// Capitalized is true when the first or last matched word begins with
	// a capital letter, or the words are in Arabic script.
	Capitalized bool
}

// stopWords are words no place name starts with: English function words,
// whose skeletons would otherwise join the next word's ("in Syria" is not
// ‘Ayn an Nasr), and common capitalised words of captions. They are
// compared as written, in lower case: "his" is a stop word, but "Hish", a
// town whose fine form is also "his", is not.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields("a the in at on of and to for by with from as is it its this that these " +
		"those his her their he she they we i after before near into over under while who which where when " +
		"are was were be been has have had not no or but than then there here our your my one two three " +
		// Capitalised words of war captions that are never places but
		// fold close to village names (Syrian ~ Sirin).
		"syrian syrians kurdish kurds turkish russian iranian iraqi lebanese jordanian american " +
		"islamic muslim muslims christian christians alawite sunni shiite druze army rebel rebels free " +
		"president government regime state reuters photo picture people peoples forces units democratic") {
		m[w] = true
	}
	return m
}()

// IsStopWord reports whether word, in any case, is one no place name
// starts with (see stopWords).
func IsStopWord(word string) bool { return isStopWord(word) }

// isStopWord reports whether word, in any case, is one of stopWords.
func isStopWord(word string) bool {
	if len(word) > 16 {
		return false
	}
	var buf [16]byte
	b := buf[:0]
	for i := 0; i < len(word); i++ {
		c := word[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return stopWords[string(b)]
}

// maxWords bounds how many words one name may span.
const maxWords = 8

type token struct {
	start, end   int
	fine, skel   []byte
	glued        []byte // see foldedWord
	gluedSkel    []byte
	bare         []byte // see foldedWord
	article      bool
	broken       bool
	upper, arabc bool
}

type scanScratch struct {
	toks []token
	fine []byte
	// memo holds the folded form of each word seen: captions share most
	// of their words, and a lookup is cheaper than folding. A scratch is
	// used by one goroutine at a time, so memo needs no lock.
	memo map[string]foldedWord
}

// memoSize bounds a scratch's memo; a full memo is started afresh.
const memoSize = 1 << 14

var scanPool = sync.Pool{New: func() any { return new(scanScratch) }}

// Scan appends to dst every place name found in text, longest first at each
// position, and returns the extended slice. A name does not run across
// punctuation other than hyphens. Scan is safe for concurrent use.
func (g *Gazetteer) Scan(text string, dst []Hit) []Hit { return g.scan(text, dst, false) }

// ScanNames is Scan for the names written as names: the hits whose first
// or last word is capitalised, or in Arabic script (see Hit.Capitalized).
// Skipping the others spares most of the work on a caption's text.
func (g *Gazetteer) ScanNames(text string, dst []Hit) []Hit { return g.scan(text, dst, true) }

func (g *Gazetteer) scan(text string, dst []Hit, namesOnly bool) []Hit {
	sc := scanPool.Get().(*scanScratch)
	defer scanPool.Put(sc)
	if sc.memo == nil || len(sc.memo) > memoSize {
		sc.memo = make(map[string]foldedWord, 1024)
	}
	sc.toks = tokenize(text, sc.toks[:0], sc.memo)
	toks := sc.toks
	for i := range toks {
		if toks[i].article || toks[i].skel == nil {
			continue
		}
		found := len(dst)
		dst = g.scanFrom(sc, text, i, toks[i].fine, toks[i].skel, namesOnly, false, dst)
		if toks[i].glued != nil {
			dst = g.scanFrom(sc, text, i, toks[i].glued, toks[i].gluedSkel, namesOnly, true, dst)
		}
		if toks[i].bare != nil {
			// Arabic skeletons are their fine forms.
			dst = g.scanFrom(sc, text, i, toks[i].bare, toks[i].bare, namesOnly, false, dst)
		}
		// One hit per place and span, the exact one if any; longest first.
		hits := dedupe(dst[found:])
		dst = dst[:found+len(hits)]
		for a, b := 0, len(hits)-1; a < b; a, b = a+1, b-1 {
			hits[a], hits[b] = hits[b], hits[a]
		}
	}
	return dst
}

// scanFrom appends the hits of the names that start at sc.toks[i], whose
// first word is read as fine and skel. A glued reading (the word without
// an article written onto its end) only counts for names that go on to
// the next word, and is never an exact spelling.
func (g *Gazetteer) scanFrom(sc *scanScratch, text string, i int, fine, skel []byte, namesOnly, glued bool, dst []Hit) []Hit {
	toks := sc.toks
	if len(skel) == 0 || g.trie.walk(0, skel[:1]) < 0 {
		return dst
	}
	checked := false // whether toks[i] is a stop word, looked up on the first name found
	node := int32(0)
	var last byte
	for j := i; j < len(toks) && j-i < maxWords; j++ {
		t := &toks[j]
		if j > i && t.broken {
			break
		}
		if j > i && t.article {
			continue
		}
		word := t.skel
		if j == i {
			word = skel
		}
		node = g.trie.walk(node, withoutDoubled(word, last))
		if node < 0 {
			break
		}
		if len(word) > 0 {
			last = word[len(word)-1]
		}
		refs := g.trie.nodes[node].refs
		if len(refs) == 0 || glued && j == i {
			continue
		}
		if !checked {
			checked = true
			if isStopAt(text, toks, i) {
				break
			}
		}
		capitalized := capitalizedName(text, toks, i, t)
		if namesOnly && !capitalized {
			continue
		}
		sc.fine = appendFine(append(sc.fine[:0], fine...), toks, i+1, j)
		from := len(dst)
		dst = g.appendHits(dst, refs, sc.fine, Hit{Start: nameStart(toks, i), End: t.end, Capitalized: capitalized})
		if glued {
			for k := from; k < len(dst); k++ {
				dst[k].Exact = false
			}
		}
	}
	return dst
}

// withoutDoubled is a word's skeleton as it follows a word that ended in
// last: a consonant the two share across the space is read once.
func withoutDoubled(s []byte, last byte) []byte {
	if last != 0 && len(s) > 0 && s[0] == last && s[0] < utf8.RuneSelf {
		return s[1:]
	}
	return s
}

// isStopAt reports whether the name starting at toks[i] is a stop word;
// after an article ("Al-Is") the word is a name's.
func isStopAt(text string, toks []token, i int) bool {
	return isStopWord(text[toks[i].start:toks[i].end]) && (i == 0 || !toks[i-1].article)
}

// capitalizedName reports whether the name from toks[i] to t is written
// as a name. A capitalised article joined to it by a hyphen capitalises
// it ("Al-khalidiya", as captions write it; "Each mosaic" folds its first
// word to an article, but is no name).
func capitalizedName(text string, toks []token, i int, t *token) bool {
	return toks[i].upper || t.upper || toks[i].arabc ||
		i > 0 && toks[i-1].article && toks[i-1].upper && text[toks[i-1].end:toks[i].start] == "-"
}

// fineRun returns the run refs[lo:hi] whose fine form is fine, in refs
// sorted by fine form (lo == hi when there is none).
func fineRun(refs []nameRef, fine []byte) (lo, hi int) {
	lo, hi = 0, len(refs)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if refs[m].fine < string(fine) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	hi = lo
	for hi < len(refs) && refs[hi].fine == string(fine) {
		hi++
	}
	return lo, hi
}

// dedupe keeps one hit per place and end in hits, which share a start,
// preferring an exact one, and returns the shortened slice.
func dedupe(hits []Hit) []Hit {
	out := hits[:0]
	for _, h := range hits {
		dup := false
		for k := range out {
			if out[k].Place == h.Place && out[k].End == h.End {
				out[k].Exact = out[k].Exact || h.Exact
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, h)
		}
	}
	return out
}

// tokenize folds the words of text into toks, using and filling memo.
func tokenize(text string, toks []token, memo map[string]foldedWord) []token {
	forEachWord(text, func(word string, start int, broken bool) {
		f, ok := memo[word]
		if !ok {
			f = foldWord(nil, word)
			memo[strings.Clone(word)] = f
		}
		r, _ := utf8.DecodeRuneInString(word)
		toks = append(toks, token{start: start, end: start + len(word), fine: f.text, skel: f.skel, glued: f.glued, gluedSkel: f.gluedSkel, bare: f.bare,
			article: f.article, broken: broken, upper: unicode.IsUpper(r), arabc: f.arabic})
	})
	return toks
}

// SameName reports whether two folded names are spellings of one another,
// as Lookup and Scan match them: equal skeletons, and fine forms that are
// equal or, for skeletons of three consonants or more, a few edits apart.
func SameName(a, b Key) bool {
	if a.Skeleton != b.Skeleton || a.Skeleton == "" {
		return false
	}
	return a.Fine == b.Fine || a.Consonants > 2 && closeSpelling(nameRef{fine: b.Fine, consonants: b.Consonants, letters: lettersOf(b.Fine)}, []byte(a.Fine), lettersOf(a.Fine))
}

package main

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geo"

	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
)

// builder merges the source records into one entry per real place. Each
// record either joins a place already there — the same id, or a place that
// shares one of its names (as the geocoder matches names) and lies close
// by, of a kind it may be — or becomes a place of its own. A place keeps
// every record's id, every spelling, and the name and point of its best
// source (see the ranks below).
type builder struct {
	places []gazetteer.Place
	meta   []meta
	byID   map[string]int   // every id, primary or merged, → place
	bySkel map[string][]int // the skeleton of each name → places
	// boundaries are the governorate polygons; admin names areas by P-code.
	boundaries []boundary
	admin      map[string]gazetteer.AdminRef
}

// meta is what the builder knows of a place beyond the Place itself.
type meta struct {
	nameRank, pointRank, arRank rank
	families                    map[string]bool // the source families merged in
	keys                        []gazetteer.Key // the folded names, for merging
	// seat is the OCHA area a community is the seat of, by P-code.
	seat string
}

// rank orders sources for a place's display name and point: lower wins.
type rank int

// Name ranks: a repo name override, then curated names, then the name of
// the area a town is the seat of (Open-Syria's, from Wikipedia: Idlib
// for OCHA's Idleb, Manbij for Menbij), then OCHA's (and Open-Syria's
// for areas), GeoNames' ASCII names, Who's On First's. Arabic names rank
// the same way, with the curated lists' after OCHA's.
const (
	rankOverride rank = iota
	rankCurated
	rankSeat
	rankOCHA
	rankGeoNames
	rankWOF
	rankNone
)

func newBuilder() *builder {
	return &builder{byID: map[string]int{}, bySkel: map[string][]int{}, admin: map[string]gazetteer.AdminRef{}}
}

// record is one source's record of a place.
type record struct {
	ids    []string // the first is the place's id if the record starts a place
	family string   // ocha, gn, wof, cur, os (Open-Syria)
	name   string   // the display name this source gives
	nameAr string
	names  []string // other spellings
	kind   gazetteer.Kind
	point  orb.Point
	// located is false for a record without a point.
	located             bool
	nameRank, pointRank rank
	population          int
	country             string
	sources             []string
}

// add makes a place of r and returns its index.
func (b *builder) add(r record) int {
	p := gazetteer.Place{ID: r.ids[0], Refs: r.ids[1:], Name: r.name, NameAr: r.nameAr, Kind: r.kind, Country: r.country,
		Population: r.population, Sources: r.sources}
	if r.located {
		p.Point, p.Located, p.PointFrom = roundPoint(r.point), true, r.ids[0]
	}
	i := len(b.places)
	b.places = append(b.places, p)
	b.meta = append(b.meta, meta{nameRank: r.nameRank, pointRank: r.pointRank, arRank: arabicRank(r), families: map[string]bool{r.family: true}})
	for _, id := range r.ids {
		b.byID[id] = i
	}
	b.addNames(i, append([]string{r.name, r.nameAr}, r.names...)...)
	return i
}

// join merges record r into place i: its ids, names and sources, its name
// or point where its source ranks higher, its kind where more telling.
func (b *builder) join(i int, r record) {
	p, m := &b.places[i], &b.meta[i]
	for _, id := range r.ids {
		if _, ok := b.byID[id]; !ok {
			b.byID[id] = i
			if id != p.ID {
				p.Refs = append(p.Refs, id)
			}
		}
	}
	m.families[r.family] = true
	if r.name != "" && r.nameRank < m.nameRank {
		old := p.Name
		p.Name, m.nameRank = r.name, r.nameRank
		b.addNames(i, old)
	}
	if r.nameAr != "" && (p.NameAr == "" || arabicRank(r) < m.arRank) {
		p.NameAr, m.arRank = r.nameAr, arabicRank(r)
	}
	if r.located && (r.pointRank < m.pointRank || !p.Located) {
		p.Point, p.Located, p.PointFrom, m.pointRank = roundPoint(r.point), true, r.ids[0], r.pointRank
	}
	p.Kind = mergedKind(p.Kind, r.kind)
	p.Population = max(p.Population, r.population)
	p.Sources = appendNew(p.Sources, r.sources...)
	b.addNames(i, append([]string{r.name, r.nameAr}, r.names...)...)
}

// arabicRank ranks a record's Arabic name: OCHA's and Open-Syria's
// first (written by Syrians), then the curated lists', then the rest
// (GeoNames' alternate names mix Persian, Kurdish and Urdu spellings in).
func arabicRank(r record) rank {
	switch r.family {
	case "ocha", "os":
		return rankOverride
	case "cur":
		return rankCurated
	case "wof":
		return rankWOF
	}
	return rankGeoNames
}

// mergedKind is the kind of a place two records call a and b: a quarter
// stays a quarter (OCHA lists Damascus suburbs GeoNames calls villages),
// a camp, crossing or landmark keeps that, and a settlement takes the
// larger of the two.
func mergedKind(a, b gazetteer.Kind) gazetteer.Kind {
	switch {
	case a == b || b == "":
		return a
	case !a.Populated():
		return a
	case !b.Populated():
		return b
	case a == gazetteer.City || b == gazetteer.City:
		return gazetteer.City
	case a == gazetteer.Town || b == gazetteer.Town:
		return gazetteer.Town
	}
	return a
}

// addNames adds spellings to place i: Latin or Arabic script, four letters
// or more (GeoNames lists codes such as DAM), not a name the place has,
// nor one of the names captions use for something else.
func (b *builder) addNames(i int, names ...string) {
	p, m := &b.places[i], &b.meta[i]
	for _, n := range names {
		n = cleanName(n)
		if n == "" || utf8.RuneCountInString(n) < 4 || !latinOrArabic(n) || !nameLike(n) || deniedAliases[gazetteer.Fold(n).Fine] {
			continue
		}
		if n != p.Name && !contains(p.Names, n) {
			p.Names = append(p.Names, n)
		}
		k := gazetteer.Fold(n)
		if k.Skeleton == "" || containsKey(m.keys, k) {
			continue
		}
		m.keys = append(m.keys, k)
		if !containsInt(b.bySkel[k.Skeleton], i) {
			b.bySkel[k.Skeleton] = append(b.bySkel[k.Skeleton], i)
		}
	}
	// The display name is no alias of itself.
	if j := indexOf(p.Names, p.Name); j >= 0 {
		p.Names = append(p.Names[:j], p.Names[j+1:]...)
	}
}

// find returns the place a record of family, with names, kind and point,
// is a record of: one of its ids already known, or else the nearest place
// within maxMetres that shares a name with it, may be of its kind and has
// no record of the same family (two records of one dataset are two
// places). It returns -1 when there is none.
func (b *builder) find(r record, maxMetres func(existing gazetteer.Kind) float64) int {
	for _, id := range r.ids {
		if i, ok := b.byID[id]; ok {
			return i
		}
	}
	if !r.located {
		return -1
	}
	best, bestD := -1, math.Inf(1)
	for _, n := range append([]string{r.name}, r.names...) {
		k := gazetteer.Fold(cleanName(n))
		for _, i := range b.bySkel[k.Skeleton] {
			p, m := &b.places[i], &b.meta[i]
			if !p.Located || p.Country != r.country && r.country != "" || !mergeable(p.Kind, r.kind) ||
				r.family != "cur" && m.families[r.family] || !sharesName(m.keys, k) {
				continue
			}
			if d := geo.Distance(p.Point, r.point); d <= maxMetres(p.Kind) && d < bestD {
				best, bestD = i, d
			}
		}
	}
	return best
}

func sharesName(keys []gazetteer.Key, k gazetteer.Key) bool {
	for _, o := range keys {
		if gazetteer.SameName(k, o) {
			return true
		}
	}
	return false
}

// mergeable reports whether records of kinds a and b may be one place:
// settlements with settlements, a quarter with a quarter or a settlement
// (a suburb one source lists as a village and another as a quarter),
// camps with camps, and so on; never an area.
func mergeable(a, b gazetteer.Kind) bool {
	switch {
	case a.Admin() || b.Admin():
		return a == b
	case b == "": // a record that says nothing of kind
		return true
	case a == b, a.Populated() && b.Populated():
		return true
	case a == gazetteer.Neighbourhood && b.Populated(), b == gazetteer.Neighbourhood && a.Populated():
		return true
	}
	return false
}

// mergeRadius is how far apart two records of one place may be, by the
// kind of the place already there: a city's records may be 10 km apart
// (one gives its centre, another its old town), a village's 3 km.
func mergeRadius(k gazetteer.Kind) float64 {
	switch k {
	case gazetteer.City:
		return 10000
	case gazetteer.Town:
		return 5000
	case gazetteer.Neighbourhood:
		return 2500
	}
	return 3000
}

// upsert merges r into the place find returns, or adds it; it returns the
// place's index.
func (b *builder) upsert(r record, radius func(gazetteer.Kind) float64) int {
	if i := b.find(r, radius); i >= 0 {
		b.join(i, r)
		return i
	}
	return b.add(r)
}

// cleanName trims a name and drops what the table cannot hold.
func cleanName(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '|' || r == '\t' || r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s)
	return strings.Trim(strings.Join(strings.Fields(s), " "), `"`)
}

// deniedAliases are alternate names that captions use for something else:
// al-Sham is the Levant and part of many armed groups' names (Ahrar
// al-Sham), not Damascus. Khan (a caravanserai) begins many names (Khan
// Shaykhun, Khan Tuman) and is no place alone. They are compared folded,
// so every spelling (Esh Sham, Ash-Shām) goes.
var deniedAliases = map[string]bool{gazetteer.Fold("Sham").Fine: true, gazetteer.Fold("Khan").Fine: true}

// nameLike reports whether s is written as a place name is: letters,
// digits, spaces, hyphens, apostrophes and periods, and more than an
// article ("Al"). Names with other marks are other languages' writing
// (Catalan "Bel·les") or lists ("X & Y") that no caption prints.
func nameLike(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.Mn, r) && !strings.ContainsRune(" -'’‘`ʿʾ.", r) {
			return false
		}
	}
	k := gazetteer.Fold(s)
	return k.Skeleton != "" && k.Fine != "al"
}

func latinOrArabic(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) && !unicode.Is(unicode.Latin, r) && !unicode.Is(unicode.Arabic, r) {
			return false
		}
	}
	return true
}

func isArabicText(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Arabic, r) {
			return true
		}
	}
	return false
}

func roundPoint(p orb.Point) orb.Point {
	r := func(x float64) float64 { return math.Round(x*1e5) / 1e5 }
	return orb.Point{r(p[0]), r(p[1])}
}

func contains(list []string, s string) bool { return indexOf(list, s) >= 0 }

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

func containsInt(list []int, n int) bool {
	for _, x := range list {
		if x == n {
			return true
		}
	}
	return false
}

func containsKey(list []gazetteer.Key, k gazetteer.Key) bool {
	for _, x := range list {
		if x == k {
			return true
		}
	}
	return false
}

func appendNew(list []string, more ...string) []string {
	for _, s := range more {
		if s != "" && !contains(list, s) {
			list = append(list, s)
		}
	}
	return list
}

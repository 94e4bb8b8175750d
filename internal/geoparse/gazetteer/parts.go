package gazetteer

import (
	"strings"
	"sync"
)

// Captions name a city's quarters by a part of the name the gazetteer
// holds: al-Qaterji for Karm al-Qaterji, القاطرجي for كرم القاطرجي,
// al-Mashhad for al-Ansari Mashhad. QuarterByPart reads such a part
// inside a city the caption names.

// quarterParts are the folded words of each of a quarter's names.
type quarterParts struct {
	place *Place
	names [][]Key
}

// partIndex holds each city's quarters by their folded words, made on
// first use.
type partIndex struct {
	once     sync.Once
	byParent map[string][]quarterParts
}

// genericParts are words that name no quarter alone: the heads and
// directions quarters' names share (Karm, Bab, East, شرقي…).
var genericParts = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range []string{"karm", "bab", "hay", "hayy", "jabal", "bustan", "sheikh", "shaikh", "old", "new", "east", "west",
		"north", "south", "eastern", "western", "northern", "southern", "sharqi", "gharbi", "shamali", "janoubi", "janubi",
		"madina", "medina", "souq", "suq", "street", "quarter", "district", "neighbourhood", "youth", "housing", "industrial",
		"area", "zone", "city", "camp", "mokhayam", "ard", "tal", "tell", "ibn", "abu", "bani", "beit", "dahiyat", "daheyat",
		"كرم", "باب", "حي", "جبل", "بستان", "شيخ", "الشيخ", "شرقي", "غربي", "شمالي", "جنوبي", "القديمة", "الجديدة",
		"مدينة", "سوق", "شارع", "منطقة", "مخيم", "ارض", "تل", "ابن", "ابو", "بني", "بيت", "ضاحية", "حارة"} {
		if k := Fold(w); k.Fine != "" {
			m[k.Fine] = true
		}
	}
	return m
}()

// wordKeys folds each word of a name, leaving out the article and empty
// words.
func wordKeys(name string) []Key {
	var out []Key
	// Split at spaces: Fold reads a joined article (al-Qaterji). A hyphen
	// joins two names only between words of three consonants or more
	// (OCHA's Abbasiyeh-Muhajreen, two quarters in one).
	for _, w := range strings.FieldsFunc(name, func(r rune) bool { return r == ' ' || r == '/' || r == ',' }) {
		halves := strings.Split(w, "-")
		for _, h := range halves {
			if Fold(h).Consonants < 3 {
				halves = []string{w}
				break
			}
		}
		for _, h := range halves {
			if k := Fold(h); k.Skeleton != "" {
				out = append(out, k)
			}
		}
	}
	return out
}

// sameWord reports whether two folded words are spellings of one word, as
// names are matched: the same skeleton, and the same fine form when the
// skeleton is short.
func sameWord(a, b Key) bool {
	return a.Skeleton == b.Skeleton && (a.Consonants >= 3 || a.Fine == b.Fine)
}

// QuarterByPart returns the one neighbourhood of city (of any city when
// city is nil) whose name (any of its names) holds name's words, in
// order, as a part of it — or nil when none does, several do, or name is
// only words quarters share (Karm, East, شرقي). Inside a city a one-word
// name counts too, so that a spelling with other vowels finds it.
func (g *Gazetteer) QuarterByPart(city *Place, name string) *Place {
	g.parts.once.Do(func() {
		g.parts.byParent = map[string][]quarterParts{}
		for i := range g.places {
			p := &g.places[i]
			if p.Kind != Neighbourhood || p.Parent == "" {
				continue
			}
			qp := quarterParts{place: p}
			for _, n := range p.AllNames() {
				if ks := wordKeys(n); len(ks) > 0 {
					qp.names = append(qp.names, ks)
				}
			}
			if len(qp.names) > 0 {
				g.parts.byParent[p.Parent] = append(g.parts.byParent[p.Parent], qp)
			}
		}
	})
	words := wordKeys(name)
	generic := true
	for _, w := range words {
		generic = generic && genericParts[w.Fine]
	}
	if len(words) == 0 || generic {
		return nil
	}
	var found *Place
	look := func(quarters []quarterParts) bool {
		for _, qp := range quarters {
			for _, ks := range qp.names {
				// A one-word name, read by its consonants alone (Akrama,
				// Ikrima), only among the quarters of the city named.
				if (len(ks) > 1 || city != nil) && holdsRun(ks, words) {
					if found != nil && found != qp.place {
						return false // two quarters: the part names neither
					}
					found = qp.place
					break
				}
			}
		}
		return true
	}
	if city != nil {
		if !look(g.parts.byParent[city.ID]) {
			return nil
		}
		return found
	}
	for _, quarters := range g.parts.byParent {
		if !look(quarters) {
			return nil
		}
	}
	return found
}

// holdsRun reports whether words appear in ks one after another.
func holdsRun(ks, words []Key) bool {
	for i := 0; i+len(words) <= len(ks); i++ {
		j := 0
		for j < len(words) && sameWord(ks[i+j], words[j]) {
			j++
		}
		if j == len(words) {
			return true
		}
	}
	return false
}

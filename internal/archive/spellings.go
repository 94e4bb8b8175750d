package archive

import "github.com/syriamap/syriamap/internal/geoparse/gazetteer"

// Spellings is the table by which the archive's caption search reads the
// place names among a search's words (gazetteer.SearchSpellings): made
// from the gazetteer, with the places its editors added, on the first
// search that needs it (about a second of folding), and again when a
// place is added.
func (a *Archive) Spellings() *gazetteer.SearchSpellings {
	x := a.places.Load()
	x.spellingsOnce.Do(func() { x.spellings = x.gazetteer.NewSearchSpellings(nil) })
	return x.spellings
}

// widenSearch is the store's WidenSearch: a search's parts when it names
// a place (gazetteer.SearchSpellings.Widen), else nil.
func (a *Archive) widenSearch(q string) [][]string {
	if w, ok := a.Spellings().Widen(q); ok {
		return w.Parts
	}
	return nil
}

// Widen reads a caption search as the archive searches it: the places
// it names, with the spellings searched for each; ok is false when it is
// searched as it is.
func (a *Archive) Widen(q string) (gazetteer.Widened, bool) { return a.Spellings().Widen(q) }

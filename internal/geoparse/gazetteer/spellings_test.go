package gazetteer_test

import (
	"slices"
	"sync"
	"testing"

	"github.com/syriamap/syriamap/geodata"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
)

var bundledSpellings = sync.OnceValue(func() *gazetteer.SearchSpellings {
	g, err := gazetteer.Load(geodata.Gazetteer)
	if err != nil {
		panic(err)
	}
	return g.NewSearchSpellings(nil)
})

// TestWidenSpellings (issue 68, 3): a search that is a place's name, in
// any of its spellings in either script, with a particle written onto an
// Arabic one, is widened to the same spellings of the same place — the
// city, not the governorate of its name; a common word, a "phrase" or a
// search with operators is searched as it is.
func TestWidenSpellings(t *testing.T) {
	s := bundledSpellings()
	for _, tc := range []struct {
		place    string
		searches []string
		want     []string // among the spellings searched
	}{
		{"gn:172955", []string{"Raqqa", "raqqah", "Raqqah", "ar-Raqqah", "Ar Raqqa", "Raqqa,", "الرقة", "بالرقة", "والرقة", "للرقة"}, []string{"raqqa", "raqqah", "الرقه"}},
		{"gn:170063", []string{"Aleppo", "aleppo", "Alepo", "حلب", "بحلب", "وحلب"}, []string{"aleppo", "حلب"}},
		{"gn:170794", []string{"Deir ez Zor", "Deir al Zor", "Dayr az Zawr", "دير الزور", "بدير الزور"}, []string{"deir zor", "dayr zawr", "دير الزور"}},
		{"gn:169577", []string{"Homs", "Hims", "حمص", "بحمص"}, []string{"homs", "hims", "حمص"}},
		{"gn:169389", []string{"Idlib", "Idleb", "إدلب", "ادلب"}, []string{"idlib", "idleb", "ادلب"}},
		{"gn:170654", []string{"Damascus", "دمشق", "بدمشق"}, []string{"damascus", "دمشق"}},
		{"gn:170592", []string{"Douma", "Duma", "دوما"}, []string{"douma", "duma", "دوما"}},
	} {
		var first []string
		for _, q := range tc.searches {
			w, ok := s.Widen(q)
			if !ok || len(w.Spelled) != 1 || w.Spelled[0].Place != tc.place || len(w.Parts) != 1 {
				t.Errorf("Widen(%q) = %+v, %v; want one part, the place %s", q, w, ok, tc.place)
				continue
			}
			if first == nil {
				first = w.Parts[0]
			}
			if !slices.Equal(w.Parts[0], first) {
				t.Errorf("Widen(%q) searches %q; Widen(%q) %q", q, w.Parts[0], tc.searches[0], first)
			}
			for _, k := range tc.want {
				if !slices.Contains(w.Parts[0], k) {
					t.Errorf("Widen(%q) searches %q, without %q", q, w.Parts[0], k)
				}
			}
		}
	}
}

// TestWidenLeavesTheRest: the words beside a place's name stay as they
// are, and what is no place, or no search of words alone, is not widened.
func TestWidenLeavesTheRest(t *testing.T) {
	s := bundledSpellings()
	w, ok := s.Widen("smoke over Raqqa")
	if !ok || len(w.Parts) != 3 || !slices.Equal(w.Parts[0], []string{"smoke"}) || !slices.Equal(w.Parts[1], []string{"over"}) ||
		!slices.Contains(w.Parts[2], "الرقه") {
		t.Errorf("Widen(smoke over Raqqa) = %q, %v", w.Parts, ok)
	}
	// A name broken by a stray space is no spelling ("د مشق").
	if w, _ := s.Widen("Damascus"); len(w.Spelled) != 1 || slices.Contains(w.Spelled[0].Names, "د مشق") {
		t.Errorf("Damascus is spelled %+v", w.Spelled)
	}
	for _, q := range []string{"smoke", "children", "army", "the", "Raqqa OR smoke", `"Raqqa"`, "Raqq*", "(Raqqa)", "NOT Raqqa", "hospital", "school", "market", "street", "camp"} {
		if w, ok := s.Widen(q); ok {
			t.Errorf("Widen(%q) = %q; want the search as it is", q, w.Parts)
		}
	}
}

// BenchmarkWiden is what reading a search by the table costs.
func BenchmarkWiden(b *testing.B) {
	s := bundledSpellings()
	for b.Loop() {
		s.Widen("smoke over Deir ez Zor")
	}
}

// BenchmarkNewSearchSpellings is what making the table of the bundled
// gazetteer costs (once per archive, on its first search that needs it).
func BenchmarkNewSearchSpellings(b *testing.B) {
	g, err := gazetteer.Load(geodata.Gazetteer)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		g.NewSearchSpellings(nil)
	}
}

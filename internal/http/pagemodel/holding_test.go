package pagemodel

import (
	"slices"
	"testing"

	"github.com/syriamap/syriamap/geodata"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
)

// TestHoldingPlaces (issue 68, 3): the places place search finds for a
// filter are those photos are at, the places they lie in and their
// governorates; a city names the places inside it that hold photos (its
// filter's), a governorate none (its own filter holds them).
func TestHoldingPlaces(t *testing.T) {
	g, err := gazetteer.Load(geodata.Gazetteer)
	if err != nil {
		t.Fatal(err)
	}
	// Mansour, a quarter of Raqqa (twice); Ein Issa, a town of the
	// governorate; an id no place has.
	h := HoldingPlaces(g, []string{"ocha:N0469", "gn:172134", "ocha:N0469", "no:such"})
	for _, tc := range []struct {
		id     string
		held   bool
		within []string
	}{
		{"ocha:N0469", true, nil},                   // the quarter
		{"gn:172955", true, []string{"ocha:N0469"}}, // its city, through it
		{"ocha:SY11", true, nil},                    // their governorate: a filter of its own
		{"gn:172134", true, nil},                    // Ein Issa
		{"gn:170063", false, nil},                   // Aleppo: no photo
	} {
		p := g.ByID(tc.id)
		if p == nil {
			t.Fatalf("%s is not in the gazetteer", tc.id)
		}
		if h.Held[p.ID] != tc.held || !slices.Equal(h.Within(p), tc.within) {
			t.Errorf("%s (%s): held %v, within %q; want %v, %q", p.Name, p.Kind, h.Held[p.ID], h.Within(p), tc.held, tc.within)
		}
	}
}

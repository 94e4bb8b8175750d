package gen_test

import (
	"strings"
	"testing"

	"github.com/syriamap/syriamap/geodata"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/geoparse/gen"
	"github.com/syriamap/syriamap/internal/geoparse/geocode"
)

// TestKinds geocodes every kind's templates (gen.Kinds) filled with every
// place of that kind, spellings and agency styles drawn with a fixed seed
// (the table "syriamap geocode --kinds" prints; about 79,000 captions, a
// few seconds), and holds each kind at 95 % right in place and in
// precision (abroad: in place). (The answers at ≥ 0.8 are logged, not
// held: the confidence is fitted elsewhere.)
func TestKinds(t *testing.T) {
	g, err := gazetteer.Load(geodata.Gazetteer)
	if err != nil {
		t.Fatal(err)
	}
	cases := gen.Kinds(g, 1, 0)
	if again := gen.Kinds(g, 1, 0); len(again) != len(cases) || again[0].Text != cases[0].Text || again[len(again)-1].Text != cases[len(cases)-1].Text {
		t.Fatal("the same seed gave other captions")
	}
	rows := gen.ByKind(gen.MeasureKinds(geocode.New(g), cases))
	if len(rows) < 9 {
		t.Fatalf("%d kinds measured, want every kind", len(rows))
	}
	for _, r := range rows {
		const floor = 95.0
		place, precision := 100*float64(r.Place)/float64(r.N), 100*float64(r.Precision)/float64(r.N)
		t.Logf("%-16s n=%4d place %5.1f %% precision %5.1f %% ≥0.8 right %d/%d", r.Kind, r.N, place, precision, r.SureRight, r.Sure)
		// Abroad, right is no Syrian place: which village of Turkey is
		// reported, not held.
		abroad := strings.Contains(r.Kind, "abroad")
		if place < floor || !abroad && precision < floor {
			t.Errorf("%s: place %.1f %%, precision %.1f %%; want %.0f %%; first misses: %q",
				r.Kind, place, precision, floor, r.Misses[:min(3, len(r.Misses))])
		}
	}
}

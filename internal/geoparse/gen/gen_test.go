package gen_test

import (
	"testing"

	"github.com/syriamap/syriamap/geodata"
	"github.com/syriamap/syriamap/internal/geoparse/caption"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/geoparse/gen"
	"github.com/syriamap/syriamap/internal/geoparse/geocode"
)

// TestCaptionsRead checks that generated captions are captions: the same
// seed gives the same ones, and the reader finds a date, an agency and a
// place in nearly all of them.
func TestCaptionsRead(t *testing.T) {
	g, err := gazetteer.Load(geodata.Gazetteer)
	if err != nil {
		t.Fatal(err)
	}
	a, b := gen.New(g, 5), gen.New(g, 5)
	gc := geocode.New(g)
	const n = 2000
	dated, credited, placed := 0, 0, 0
	for i := 0; i < n; i++ {
		text := a.Caption()
		if text != b.Caption() {
			t.Fatal("the same seed gave other captions")
		}
		c := caption.Parse(text)
		if !c.Date.IsZero() {
			dated++
		}
		if c.Credit.Agency != "" && c.Credit.Photographer != "" {
			credited++
		}
		if gc.Geocode(c).Place != nil {
			placed++
		}
	}
	if dated < n*99/100 || credited < n*99/100 || placed < n*97/100 {
		t.Errorf("of %d captions: %d dated, %d credited, %d placed", n, dated, credited, placed)
	}
}

// TestArabicCaptionsRead: generated Arabic captions are read as the
// English ones are — dated to the day, credited and placed in nearly all.
func TestArabicCaptionsRead(t *testing.T) {
	g, err := gazetteer.Load(geodata.Gazetteer)
	if err != nil {
		t.Fatal(err)
	}
	a := gen.New(g, 5)
	gc := geocode.New(g)
	const n = 2000
	dated, credited, placed := 0, 0, 0
	for i := 0; i < n; i++ {
		text := a.ArabicCaption()
		c := caption.Parse(text)
		if c.Date.Precision == "day" {
			dated++
		}
		if c.Credit.Agency != "" {
			credited++
		}
		if gc.Geocode(c).Place != nil {
			placed++
		}
	}
	t.Logf("of %d Arabic captions: %d dated to the day, %d credited, %d placed", n, dated, credited, placed)
	if dated < n*99/100 || credited < n*99/100 || placed < n*90/100 {
		t.Errorf("of %d Arabic captions: %d dated to the day, %d credited, %d placed", n, dated, credited, placed)
	}
}

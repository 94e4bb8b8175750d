package geocode_test

import (
	"io/fs"
	"sort"
	"testing"

	"github.com/syriamap/syriamap/geodata"
	"github.com/syriamap/syriamap/internal/geoparse/caption"
)

// TestSeedCaptions checks every bundled seed caption against the reading a
// person gives it (the table in the foundation issue).
func TestSeedCaptions(t *testing.T) {
	gc, g := newGeocoder(t)
	p := func(s string) *string { return &s }
	wants := []want{
		{Date: p("2016-09-19"), Photographer: p("Bassam Khabieh"), Agency: p("Reuters"), Place: p("Zamalka"), Kind: "town"},
		{Date: p("2015-11-07"), Photographer: p("Ammar Abdullah"), Agency: p("Reuters"), Place: p("Idlib"), Kind: "city"},
		{Date: p("2016-02-05"), Photographer: p("Joseph Eid"), Agency: p("AFP"), Place: p("Homs"), Kind: "city"},
		{Date: p("2016-03-14"), Photographer: p("Amer Almohibany"), Agency: p("AFP"), Place: p("Jobar"), Kind: "neighbourhood"},
		{Date: p("2016-11-06"), Photographer: p("Sameer Al-Doumy"), Agency: p("AFP"), Place: p("Harasta"), Kind: "town"},
		{Date: p("2016-10-07"), Photographer: p("Omar Sanadiki"), Agency: p("Reuters"), Place: p("Umayyad Square"), Kind: "landmark"},
		{Date: p("2016-07-12"), Photographer: p("Karam Al-Masri"), Agency: p("AFP"), Place: p("Aleppo"), Kind: "city"},
		// Dwelaa has no point in any source here: Damascus, as a fallback.
		{Date: p("2016-07-06"), Photographer: p("Omar Sanadiki"), Agency: p("Reuters"), Place: p("Damascus"), Kind: "city", Precision: "fallback"},
		{Date: p("2016-03-14"), Photographer: p("Amer Almohibany"), Agency: p("AFP"), Place: p("Jobar"), Kind: "neighbourhood"},
		{Date: p("2016-10-24"), Photographer: p("Bassam Khabieh"), Agency: p("Reuters"), Place: p("Douma")},
		{Date: p("2017-01-22"), Photographer: p("Rodi Said"), Agency: p("Reuters"), Place: p("Ras al-Ain"), Kind: "town"},
		{Date: p("2016-05-30"), Photographer: p("Baraa Al-Halabi"), Agency: p("AFP"), Place: p("al-Sukkari"), Kind: "neighbourhood"},
		{Date: p("2014-12-28"), Photographer: p("Jalal Al-Mamo"), Agency: p("Reuters"), Place: p("Old City of Aleppo"), Kind: "neighbourhood"},
		{Date: p("2015-01-17"), Photographer: p("Khalil Ashawi"), Agency: p("Reuters"), Place: p("Kafranbel"), Kind: "town"},
		// Bishqatin, a village west of Aleppo: OCHA's Bishqatine (C1145).
		{Date: p("2012-12-08"), Photographer: p("Herve Bar"), Agency: p("AFP"), Place: p("Bishqatin"), Kind: "village"},
		{Date: p("2013-08-21"), Photographer: p("James Lawler Duggan"), Place: p("Bustan Pasha"), Kind: "neighbourhood"},
	}
	var texts []string
	names, _ := fs.Glob(geodata.Samples, "*.txt")
	sort.Strings(names)
	for _, n := range names {
		data, err := fs.ReadFile(geodata.Samples, n)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, caption.Split(string(data))...)
	}
	if len(texts) != len(wants) {
		t.Fatalf("the samples hold %d captions, want %d", len(texts), len(wants))
	}
	for i, w := range wants {
		w.Text = texts[i]
		t.Run(w.Text[:40], func(t *testing.T) { check(t, gc, g, w) })
	}
}

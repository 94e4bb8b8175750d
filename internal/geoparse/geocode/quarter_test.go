package geocode_test

import (
	"testing"

	"github.com/syriamap/syriamap/internal/geoparse/caption"
	"github.com/syriamap/syriamap/internal/geoparse/geocode"
)

// TestQuarterOfTheNamedCity: a quarter is read as the quarter of the city
// the caption names, under the spellings the press gives it; a quarter the
// gazetteer lacks, named as a quarter anywhere in the sentence that names
// its city, is a fallback to the city, never exact.
func TestQuarterOfTheNamedCity(t *testing.T) {
	gc, _ := newGeocoder(t)
	tests := []placeCase{
		// A spelling of the quarter: -eya for -iya.
		{"Smoke rises from buildings in the al-Hamdeya neighbourhood of Homs, March 2, 2014. REUTERS/Stringer", "Hameidiyyeh", geocode.Exact},
		{"Residents walk past rubble in Homs' Hamdeyah district, May 12, 2014.", "Hameidiyyeh", geocode.Exact},
		// A quarter of the city named, though a district elsewhere in its
		// governorate bears the quarter's name.
		{"Men sell bread at a market in Raqqa's Al- Thawrah district, 2013.", "Al- Thawrah", geocode.Exact},
		{"Children play in the Al-Thawrah district of Raqqa, 2014.", "Al- Thawrah", geocode.Exact},
		// A quarter known without a point, named alone: its city, marked,
		// not the town a word of its name is (al-Bab).
		{"Rebels fire from a building in Tareeq al-Bab on July 21, 2013. REUTERS/Stringer", "Aleppo", geocode.Fallback},
		// Raqqa's old city is its walled quarter, al-Rafiqa.
		{"Fighters walk past graffiti in the old city of Raqqa, August 2017. REUTERS/Stringer", "Rafqa", geocode.Exact},
		{"Smoke rises over Raqqa's Old City, 2017.", "Rafqa", geocode.Exact},
		// The quarter of the city named, spelt with other vowels or as
		// half of OCHA's hyphenated pair, not a village of that name.
		{"Rebels rest in the Akrama neighbourhood of Homs, May 3, 2012.", "Ikrima", geocode.Exact},
		{"A boy walks in the Abbasiyeh neighbourhood of Homs, May 3, 2012.", "Abbasiyeh-Muhajreen", geocode.Exact},
		{"A sniper holds a position close to the Old City of Syria's Raqqa on September 3, 2017. (AFP)", "Rafqa", geocode.Exact},
		// A landmark of a city's old city, which the gazetteer lacks: the
		// old city, marked fallback, rather than the whole city.
		{"Cyclists ride through the Old City souk in Homs, 2014.", "Old City of Homs", geocode.Fallback},
		{"Men walk through the once bustling Old City market in Homs, 2014.", "Old City of Homs", geocode.Fallback},
		{"A fighter stands near the old city walls in Raqqa, 2017.", "Rafqa", geocode.Fallback},
		{"A boy sells tea at the old city market of Aleppo, 2010.", "Old City of Aleppo", geocode.Fallback},
		// A quarter the gazetteer lacks, its city named far after it.
		{"Government troops advance in the Bab Jenin neighbourhood during an offensive to retake the last rebel-held areas in the northern city of Aleppo, Dec. 9. (AFP)", "Aleppo", geocode.Fallback},
		{"Men clear rubble in the Jisr al-Naher district after an overnight air strike on rebel positions in the embattled city of Aleppo, 2016.", "Aleppo", geocode.Fallback},
		// A district of a governorate, named with its city, is no quarter.
		{"A boy walks past a damaged building in the Harem district of Idlib province, 2016.", "Harem", geocode.Exact},
	}
	checkPlaces(t, gc, tests, false)
}

// TestArabicGhouta: "الغوطة" alone is the Ghouta around Damascus, as
// "Ghouta" is in English, not the Homs quarter or the Raqqa village of
// that name; "حي الغوطة" still names the quarter.
func TestArabicGhouta(t *testing.T) {
	g, err := bundled()
	if err != nil {
		t.Fatal(err)
	}
	gc := geocode.New(g)
	for text, want := range map[string]string{
		"أطفال فروا من القصف في الغوطة":         "Eastern Ghouta",
		"نازحون يعبرون الطريق بالغوطة (رويترز)": "Eastern Ghouta",
		"دمار في حي الغوطة بحمص":                "Ghota",
	} {
		r := gc.Geocode(caption.Parse(text))
		if r.Place == nil || r.Place.Name != want {
			t.Errorf("%q: got %v, want %s", text, r.Place, want)
		}
	}
}

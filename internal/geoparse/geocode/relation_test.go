package geocode_test

import (
	"testing"

	"github.com/syriamap/syriamap/internal/geoparse/caption"
	"github.com/syriamap/syriamap/internal/geoparse/geocode"
)

// TestRelationIsTheSmaller: a place described by its relation to a bigger
// one is the smaller — "the Aleppo suburb of X", a village "in the Manbij
// district of Aleppo province" (the district, not the town of Manbij).
func TestRelationIsTheSmaller(t *testing.T) {
	g, err := bundled()
	if err != nil {
		t.Fatal(err)
	}
	gc := geocode.New(g)
	for text, want := range map[string]string{
		"Women sit outside a tent in the Aleppo suburb of Big Zawraq on February 23, 2016. (Photo by Omar Mohammed/Getty Images)":                         "Big Zawraq",
		"Rebels walk in the rebel-held village of Tiwal, in the Manbij district of Aleppo province, on July 24, 2015. / AFP PHOTO / BARAA AL-HALABI":      "Twal",
		"A woman stands in the rebel-held village of Tall Bass, in the Ras al-Ayn district of Al-Hasakah province, on July 10, 2014. / AFP PHOTO / DELIL": "Tall Bass",
		"Men carry a wounded man to a field hospital in Douma, near the Syrian capital Damascus, March 3, 2015. REUTERS/Bassam Khabieh":                   "Douma",
	} {
		r := gc.Geocode(caption.Parse(text))
		if r.Place == nil || r.Place.Name != want || r.Precision != geocode.Exact {
			t.Errorf("%q: got %v (%s), want %s", text, r.Place, r.Precision, want)
		}
	}
}

// TestSpelledAsWritten: of the readings whose names fold like the
// caption's word, the one with a name spelled as written is taken
// ("Maardes" is Maar Dis, not Mirdash).
func TestSpelledAsWritten(t *testing.T) {
	g, err := bundled()
	if err != nil {
		t.Fatal(err)
	}
	r := geocode.New(g).Geocode(caption.Parse("A boy stands in the village of Maardes in Hama countryside, May 3, 2012. REUTERS/Handout"))
	if r.Place == nil || r.Place.ID != "ocha:C3031" {
		t.Errorf("got %v, want Maar Dis (ocha:C3031)", r.Place)
	}
}

// TestNearBorder: of the places of one name, a caption that puts the photo
// near a neighbour's border means the one in a governorate along it
// ("Souran village, near the Turkish border": the Suran of Aleppo, not
// of Hama).
func TestNearBorder(t *testing.T) {
	g, err := bundled()
	if err != nil {
		t.Fatal(err)
	}
	r := geocode.New(g).Geocode(caption.Parse("Fighters rest in Souran village, near the Turkish border, May 3, 2016. REUTERS/Khalil Ashawi"))
	if r.Place == nil || r.Place.Governorate.PCode != "SY02" {
		t.Errorf("got %v, want the Suran of Aleppo governorate", r.Place)
	}
}

// TestArabicNameInItsHolder: "مدينة X بـY", the city of X in Y, is X —
// the name written with "ب" right after a place only says what holds it,
// be it written with the hamza ("بإدلب") or without ("بحلب").
func TestArabicNameInItsHolder(t *testing.T) {
	g, err := bundled()
	if err != nil {
		t.Fatal(err)
	}
	gc := geocode.New(g)
	for text, want := range map[string]string{
		"دمار في مدينة سراقب بإدلب بعد الغارات (الدفاع المدني)":        "Saraqib",
		"أطفال يلعبون في حدائق مدينة منبج بحلب":                        "Manbij",
		"انتشال ضحايا في مدينة أريحا بإدلب":                            "Ariha",
		"سوق شعبي في مدينة تلبيسة بحمص":                                "Talbiseh",
		"مقاتلون في بلدة الأتارب بحلب":                                 "Atareb",
		"أطفال في ساحات وحدائق مدينة منبج بحلب":                        "Manbij",
		"أطفال في ساحات مدينة الباب بحلب":                              "Al-Bab",
		"مظاهرة في مدينة الباب بحلب":                                   "Al-Bab",
		"أطفال يلعبون في شوارع وحدائق مدينة الباب بحلب، شمالي البلاد.": "Al-Bab",
	} {
		r := gc.Geocode(caption.Parse(text))
		if r.Place == nil || r.Place.Name != want {
			t.Errorf("%q: got %v (%s), want %s", text, r.Place, r.Precision, want)
		}
	}
}

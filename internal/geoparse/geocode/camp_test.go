package geocode_test

import (
	"testing"

	"github.com/syriamap/syriamap/internal/geoparse/caption"
	"github.com/syriamap/syriamap/internal/geoparse/geocode"
)

// TestCampOrCrossingNamedByTown: a camp or crossing named with a town's or
// village's name is the camp or crossing, never the homonymous village; a
// fallback, marked, to where it stands when the gazetteer lacks its point.
func TestCampOrCrossingNamedByTown(t *testing.T) {
	gc, _ := newGeocoder(t)
	tests := []placeCase{
		{"Children confined to the Bab al-Salam camp for internally displaced persons in Syria are often crowded out of makeshift schools. Photo by Erin Banco.", "Bab al-Salameh crossing", geocode.Fallback},
		{"In this image taken Wednesday, Feb. 3, 2016 Syrians wait to enter Turkey at the Bab al-Salam border gate, Syria. (AP Photo)", "Bab al-Salameh crossing", geocode.Exact},
		{"A Syrian refugee holds onto his daughter as he waits to cross into Turkey at Akcakale border gate in Sanliurfa province, Turkey, June 15, 2015. REUTERS/Umit Bektas", "Akcakale", geocode.Fallback},
		{"Children wait at the Tal Abyad border crossing, May 3, 2014. REUTERS/Osman Orsal", "Tell Abyad", geocode.Fallback},
		{"People buy potatoes from a street vendor at the Karaj al-Hajez crossing, a passageway separating Aleppo’s Bustan al-Qasr, which is under the rebels’ control, and Al-Masharqa neighborhood, July 10, 2013. (photo by REUTERS/Muzaffar Salman)", "Aleppo", geocode.Fallback},
		{"A candle provides a little light for children inside their tent at a refugee camp on the border with Turkey, near Azaz, Feb. 22, 2013. (AP Photo)", "Azaz", geocode.Fallback},
		{"Women wait for aid at the Kafr Zaytah refugee camp in Hama province on December 10, 2015. (Photo by Khaled Kilic/Getty Images)", "Kafr Zeita", geocode.Fallback},
		{"Children look at the destruction at the Helle refugee camp in Idlib province, on January 5, 2014. / AFP PHOTO / AMMAR SALMAN", "Helleh", geocode.Fallback},
	}
	checkPlaces(t, gc, tests, false)
}

// TestArabicCampInItsVillage: "مخيم «X» بقرية Y", the X camp in the
// village of Y, is X where a reading of X lies by Y; a camp named like a
// place far from Y is Y, marked fallback.
func TestArabicCampInItsVillage(t *testing.T) {
	g, err := bundled()
	if err != nil {
		t.Fatal(err)
	}
	gc := geocode.New(g)
	for _, c := range []struct {
		text, want string
		precision  geocode.Precision
	}{
		{"تحمل هذه الطفلة وعاء ماء، هنا في مخيم «المبروكة» بقرية رأس العين", "Mabruka", geocode.Exact},
		{"خيام في مخيم «الكرامة» بقرية أطمة", "Atmeh", geocode.Fallback},
	} {
		r := gc.Geocode(caption.Parse(c.text))
		if r.Place == nil || r.Place.Name != c.want || r.Precision != c.precision {
			t.Errorf("%q: got %v (%s), want %s (%s)", c.text, r.Place, r.Precision, c.want, c.precision)
		}
	}
}

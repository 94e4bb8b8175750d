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

// TestCrossingWithoutPoint: the crossings the gazetteer holds without a
// point (Nasib, Jaber, Rabia, Yarubiyah, Mursitpinar) are placed at the
// village or town they are named after, and the Nizip camp at Nizip,
// marked fallback and never sure,
// however the caption names them ("border gate", "with Jordan"); Masnaa,
// whose point is cited, is the crossing.
func TestCrossingWithoutPoint(t *testing.T) {
	gc, _ := newGeocoder(t)
	tests := []placeCase{
		{"Trucks wait at the Nasib border crossing with Jordan, October 15, 2018. REUTERS/Omar Sanadiki", "Nasib", geocode.Fallback},
		{"Soldiers wait to cross at Nasib border gate on December 27, 2017.", "Nasib", geocode.Fallback},
		{"Syrians cross at the Jaber border crossing in Jordan, October 15, 2018.", "Jabir as Sirhan", geocode.Fallback},
		{"Civil defence members wait to cross at Jaber border gate November 28, 2014. REUTERS/Anas Mohammed", "Jabir as Sirhan", geocode.Fallback},
		{"Refugees cross at the Rabia border crossing into Iraq, 2014.", "Rabi'ah", geocode.Fallback},
		{"Soldiers wait to cross at Rabia border gate on December 27, 2017.", "Rabi'ah", geocode.Fallback},
		{"A Kurdish fighter at the Yarubiyah border crossing, 2014.", "Ya'robiyah", geocode.Fallback},
		{"Kurds wait at the Mursitpinar border crossing, opposite Kobani, Turkey, October 2014.", "Mursitpinar", geocode.Fallback},
		{"Lorries queue at the Masnaa border crossing between Lebanon and Syria, 2019.", "Masnaa crossing", geocode.Exact},
		{"Syrian army soldiers carry bread as they wait to cross at Masnaa border gate. (AP Photo/Khalil Al-Mamo)", "Masnaa crossing", geocode.Exact},
		// Named bare, the name is the village's, not the crossing's.
		{"Kurdish fighters walk past damaged buildings at a field hospital in Nassîb, near the city of Daraa on November 1, 2012.", "Nasib", geocode.Exact},
		// A camp without a point, at the district seat it is near.
		{"Syrian refugees queue for aid at the Nizip camp, April 23, 2016. REUTERS/Umit Bektas", "Nizip", geocode.Fallback},
		{"Refugees at the Nizip refugee camp in Gaziantep province, Turkey, April 23, 2016.", "Nizip", geocode.Fallback},
	}
	checkPlaces(t, gc, tests, true)
}

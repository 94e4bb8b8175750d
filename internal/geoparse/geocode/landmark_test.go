package geocode_test

import (
	"testing"

	"github.com/syriamap/syriamap/internal/geoparse/geocode"
)

// TestLandmarkLackingIsFallback: a landmark the gazetteer lacks, named by
// a common noun in a city ("the old souk in Homs"), is a fallback to the
// city, never exact and never sure; "a field hospital in Douma" names the
// town alone.
func TestLandmarkLackingIsFallback(t *testing.T) {
	gc, _ := newGeocoder(t)
	tests := []placeCase{
		{"Men walk at the old souk in Homs, Syria, May 3, 2014. REUTERS/Yazan Homsy", "Homs", geocode.Fallback},
		{"A man prays at the Grand Mosque in Aleppo, Syria, May 3, 2014. REUTERS/Hosam Katan", "Aleppo", geocode.Fallback},
		{"Boys play in the main square of Idlib, Syria, May 3, 2014. REUTERS/Ammar Abdullah", "Idlib", geocode.Fallback},
		{"Rebel fighters fire at forces near the artillery academy of Aleppo, May 3, 2014. REUTERS/Ammar Abdullah", "Aleppo", geocode.Fallback},
		{"A wounded man lies at a field hospital in Douma, Syria, May 3, 2014. REUTERS/Bassam Khabieh", "Douma", geocode.Exact},
	}
	checkPlaces(t, gc, tests, true)
}

package geocode_test

import (
	"testing"

	"github.com/paulmach/orb"

	"github.com/syriamap/syriamap/internal/geoparse/caption"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/geoparse/geocode"
)

// tinyGazetteer holds a few places with made-up but consistent points, so
// that each rule can be shown on its own.
func tinyGazetteer(t *testing.T) *gazetteer.Gazetteer {
	t.Helper()
	sy := func(id, name string, kind gazetteer.Kind, lon, lat float64, gov string, names ...string) gazetteer.Place {
		return gazetteer.Place{ID: id, Name: name, Names: names, Kind: kind, Point: orb.Point{lon, lat}, Located: true,
			Country: "SY", Governorate: gazetteer.AdminRef{Name: gov, PCode: map[string]string{"Damascus": "SY01", "Aleppo": "SY02", "Rif Dimashq": "SY03", "Idlib": "SY07"}[gov]},
			Sources: []string{"test"}}
	}
	places := []gazetteer.Place{
		sy("g:damascus", "Damascus", gazetteer.City, 36.29, 33.51, "Damascus"),
		sy("g:aleppo", "Aleppo", gazetteer.City, 37.16, 36.20, "Aleppo"),
		sy("g:aleppo-gov", "Aleppo", gazetteer.Governorate, 37.6, 36.25, "Aleppo"),
		sy("g:idlib", "Idlib", gazetteer.City, 36.63, 35.93, "Idlib"),
		sy("g:idlib-gov", "Idlib", gazetteer.Governorate, 36.67, 35.77, "Idlib", "Idlib Governorate"),
		sy("g:douma", "Duma", gazetteer.City, 36.40, 33.57, "Rif Dimashq", "Douma"),
		sy("g:raqqa", "Ar Raqqah", gazetteer.City, 39.01, 35.95, "Raqqa", "Raqqa"),
		sy("g:ras", "Ra's al 'Ayn", gazetteer.Town, 40.07, 36.85, "Al-Hasakah", "Ras al-Ain"),
		sy("g:midan-dam", "Midan", gazetteer.Neighbourhood, 36.283, 33.483, "Damascus"),
		sy("g:midan-alp", "Midan", gazetteer.Neighbourhood, 37.166, 36.220, "Aleppo"),
		sy("g:kafranbel", "Kafranbel", gazetteer.Town, 36.56, 35.61, "Idlib"),
		sy("g:islam", "Salma", gazetteer.Town, 36.05, 35.78, "Lattakia"),
		sy("g:fuah", "Fuah", gazetteer.Town, 36.71, 35.97, "Idlib", "Fouaa"),
		sy("g:kafriya", "Kafriya", gazetteer.Town, 36.70, 35.95, "Idlib", "Kefraya"),
		{ID: "g:castello", Name: "Castello Road", Kind: gazetteer.Landmark, Parent: "g:aleppo", Country: "SY", Sources: []string{"test"}},
		{ID: "g:nizip", Name: "Nizip camp", Kind: gazetteer.Camp, Country: "TR", Sources: []string{"test"}},
		{ID: "g:kilis", Name: "Kilis", Kind: gazetteer.City, Point: orb.Point{37.12, 36.72}, Located: true, Country: "TR", Sources: []string{"test"}},
	}
	places[8].Parent, places[9].Parent = "g:damascus", "g:aleppo"
	g, err := gazetteer.New(places)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestRules(t *testing.T) {
	gc := geocode.New(tinyGazetteer(t))
	tests := []struct {
		name, text, place string
		precision         geocode.Precision
	}{
		{"the place, not the origin", "Children who fled Raqqa city stand near their tent in Ras al-Ain province, Syria.", "g:ras", geocode.Exact},
		{"origin alone is weak but kept", "Families who fled Raqqa wait at a checkpoint.", "g:raqqa", geocode.Exact},
		{"the most specific of a chain", "A man walks in the Midan neighbourhood of Damascus.", "g:midan-dam", geocode.Exact},
		{"same name told apart by the city", "A man walks in Midan, Aleppo.", "g:midan-alp", geocode.Exact},
		{"a city, not its governorate", "A shop in the rebel-controlled city of Idlib, Syria.", "g:idlib", geocode.Exact},
		{"the governorate when the caption says so", "Displaced families in Idlib governorate, Syria.", "g:idlib-gov", geocode.Exact},
		{"a person is no place", "Newly-wed couple Salma Merhi, 18, pose in Douma.", "g:douma", geocode.Exact},
		{"an organisation is no place", "A fighter of Jaish al-Islam runs in Douma.", "g:douma", geocode.Exact},
		{"a slogan is no place", "A runner at the “I Love Damascus” marathon in Idlib.", "g:idlib", geocode.Exact},
		{"a background sentence yields", "A mosaic workshop in Kafranbel. The artists exhibit in Aleppo.", "g:kafranbel", geocode.Exact},
		{"an unknown quarter falls back to its city", "Boys play in the district of Dwelaa in Damascus, Syria.", "g:damascus", geocode.Fallback},
		{"an unknown place with no holder stays unplaced", "A rebel walks past a vehicle in Bishqatin, Syria.", "", geocode.None},
		{"a place without a point is shown at its parent", "Trucks drive on the Castello Road.", "g:aleppo", geocode.Fallback},
		{"a village west of a city falls back to the governorate", "Fighters in the village of Hmeimah, west of Aleppo, Syria.", "g:aleppo-gov", geocode.Fallback},
		{"two neighbouring towns: the first, and choosing ends", "Syrians wait to be evacuated from the towns of Fouaa and Kefraya, in Idlib province.", "g:fuah", geocode.Exact},
		{"a governorate that only qualifies a target", "Fighters advance towards the town of Kafranbel, Idlib governorate, Syria.", "g:kafranbel", geocode.Exact},
		{"a place without a point or parent is shown at what the caption says holds it", "Refugees wait at the Nizip camp in Kilis province, Turkey.", "g:kilis", geocode.Fallback},
		{"a direction names a point to find the place by", "Residents of Douma ride a bus as they leave the area, northeast of Damascus, Syria.", "g:douma", geocode.Exact},
		{"a camera place the gazetteer lacks is shown at its holder", "Smoke rises from Kafranbel as seen from the village of Hass in Idlib province.", "g:idlib-gov", geocode.Fallback},
		{"a compound adjective is no place", "Civilians arrive at a UN-supervised checkpoint in Douma.", "g:douma", geocode.Exact},
		{"outside Syria keeps its country", "Syrian refugees wait in Kilis, Turkey.", "g:kilis", geocode.Exact},
		{"nothing named", "A boy smiles at the camera.", "", geocode.None},
		{"a place near another is within 50 km of it", "Fighters rest in Douma, near Damascus, Syria.", "g:douma", geocode.Exact},
		{"a look-alike far from what it is said to be near falls back", "Fighters rest in Kafranbel, near Damascus, Syria.", "g:damascus", geocode.Fallback},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := gc.Geocode(caption.Parse(tt.text))
			got := ""
			if r.Place != nil {
				got = r.Place.ID
			}
			if got != tt.place || r.Precision != tt.precision {
				t.Errorf("%q: place %q (%s), want %q (%s); %s", tt.text, got, r.Precision, tt.place, tt.precision, r.Note)
			}
			if r.Precision == geocode.None && r.Confidence != 0 || r.Precision != geocode.None && (r.Confidence <= 0 || r.Confidence > 1) {
				t.Errorf("confidence %v for precision %s", r.Confidence, r.Precision)
			}
			if len(r.Alternatives) > 3 {
				t.Errorf("%d alternatives, want at most 3", len(r.Alternatives))
			}
		})
	}
}

// TestConfidenceOrder checks that the confidence says something: a
// named place beats a fallback, which beats a place that is only context.
func TestConfidenceOrder(t *testing.T) {
	gc := geocode.New(tinyGazetteer(t))
	exact := gc.Geocode(caption.Parse("A man walks in the Midan neighbourhood of Damascus."))
	fallback := gc.Geocode(caption.Parse("Boys play in the district of Dwelaa in Damascus, Syria."))
	context := gc.Geocode(caption.Parse("Douma residents, who fled last year, speak."))
	if !(exact.Confidence > fallback.Confidence && fallback.Confidence > 0) {
		t.Errorf("exact %v, fallback %v: want exact > fallback > 0", exact.Confidence, fallback.Confidence)
	}
	if context.Place != nil && context.Confidence >= exact.Confidence {
		t.Errorf("a context-only place (%v) is as sure as a named one (%v)", context.Confidence, exact.Confidence)
	}
}

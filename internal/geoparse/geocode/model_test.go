package geocode_test

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/geoparse/caption"
	"github.com/syriamap/syriamap/internal/geoparse/geocode"
)

// TestHonestConfidence: a name that several places share, or that a
// foreign city also bears while the caption says Syria, is never answered
// with a confidence a user would trust.
func TestHonestConfidence(t *testing.T) {
	gc, _ := newGeocoder(t)
	tests := []struct {
		text    string
		country string
		max     float64
	}{
		{"Residents walk in Judaydah, Syria", "SY", 0.5},  // a dozen villages
		{"Residents walk in Al 'Alī, Syria", "SY", 0.8},   // also Batman, Turkey
		{"People shop in Saideh, Syria", "SY", 0.8},       // also Sidon, Lebanon
		{"Residents walk in Ar Rab`ah, Syria", "SY", 0.8}, // also Amman
		{"Fighters rest in Judaydah, Turkey", "", 0.5},    // nothing Turkish of that name
	}
	for _, tt := range tests {
		r := gc.Geocode(caption.Parse(tt.text))
		if r.Place != nil && tt.country != "" && r.Place.Country != tt.country {
			t.Errorf("%q: placed in %s (%s), want %s", tt.text, r.Place.Country, r.Place.Name, tt.country)
		}
		if r.Confidence > tt.max {
			t.Errorf("%q: confidence %.2f, want at most %.2f", tt.text, r.Confidence, tt.max)
		}
	}
}

// TestExplain: the explanation gives the answer Geocode gives, and the
// features' shares add up to the model's log-odds.
func TestExplain(t *testing.T) {
	gc, _ := newGeocoder(t)
	text := "Children walk in the rebel-held town of Douma, in the eastern Damascus suburb of Ghouta, Syria March 13, 2016. REUTERS/Bassam Khabieh"
	c := caption.Parse(text)
	r := gc.Geocode(c)
	ex := gc.Explain(caption.Parse(text))
	if ex.Result.Place != r.Place || ex.Result.Confidence != r.Confidence || ex.Chosen < 0 || ex.Readings[ex.Chosen].Place != r.Place {
		t.Fatalf("Explain answered %v (reading %d), Geocode %v", ex.Result.Place, ex.Chosen, r.Place)
	}
	sum := 0.0
	for _, s := range ex.Shares() {
		sum += s
	}
	p := 1 / (1 + math.Exp(-sum))
	if want := math.Round(math.Min(0.99, math.Min(p, ex.Ceiling))*100) / 100; want != r.Confidence {
		t.Errorf("shares give %.2f, the answer says %.2f", want, r.Confidence)
	}
	var b bytes.Buffer
	if err := ex.Write(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"answer: Douma", "* m", "log rule confidence", "same-name readings"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("explanation lacks %q:\n%s", want, b.String())
		}
	}
}

func TestParseModel(t *testing.T) {
	if _, err := geocode.ParseModel([]byte(`{"features": ["bias"], "weights": [1]}`)); err == nil {
		t.Error("a model over other features was accepted")
	}
	names := `"` + strings.Join(geocode.FeatureNames[:], `","`) + `"`
	weights := strings.TrimSuffix(strings.Repeat("0,", geocode.NumFeatures), ",")
	swapped := strings.Replace(names, `"bias","log rule confidence"`, `"log rule confidence","bias"`, 1)
	if _, err := geocode.ParseModel([]byte(`{"features": [` + swapped + `], "weights": [` + weights + `]}`)); err == nil {
		t.Error("a model with its features in another order was accepted")
	}
	if _, err := geocode.ParseModel([]byte(`{"features": [` + names + `], "weights": [` + weights + `]}`)); err != nil {
		t.Errorf("a model over these features: %v", err)
	}
}

// TestCoarseAnswerFeatures: a city or area answered where the caption
// also names a place inside it ("between Jobar and Qabun … the capital
// Damascus"), or
// calls a name the gazetteer lacks a quarter, camp or village, says so in
// its features; a town named alone does neither.
func TestCoarseAnswerFeatures(t *testing.T) {
	gc, _ := newGeocoder(t)
	index := func(name string) int {
		for i, n := range geocode.FeatureNames {
			if n == name {
				return i
			}
		}
		t.Fatalf("no feature %q", name)
		return -1
	}
	holds, lacks := index("holds another place named"), index("a smaller place named it lacks")
	for _, tt := range []struct {
		text         string
		holds, lacks float64
	}{
		{"A picture shows a damaged area in an industrial zone between Jobar and Qabun, on the eastern outskirts of the capital Damascus, March 20, 2017.", 1, 0},
		{"حي طارق الباب أحد المناطق، التي تعرضت لقصف مكثف في حلب.", 0, 1},
		{"A man rides a motorbike in the town of Saraqeb, Syria, February 21, 2018. REUTERS/Khalil Ashawi", 0, 0},
	} {
		ex := gc.Explain(caption.Parse(tt.text))
		if ex.Result.Place == nil || ex.Features[holds] != tt.holds || ex.Features[lacks] != tt.lacks {
			t.Errorf("%q: answer %v, %q %g and %q %g, want %g and %g", tt.text, ex.Result.Place,
				geocode.FeatureNames[holds], ex.Features[holds], geocode.FeatureNames[lacks], ex.Features[lacks], tt.holds, tt.lacks)
		}
	}
}

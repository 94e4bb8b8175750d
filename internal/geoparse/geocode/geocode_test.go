package geocode_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/syriamap/syriamap/geodata"
	"github.com/syriamap/syriamap/internal/geoparse/caption"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/geoparse/geocode"
)

var bundled = sync.OnceValues(func() (*gazetteer.Gazetteer, error) { return gazetteer.Load(geodata.Gazetteer) })

func newGeocoder(t testing.TB) (*geocode.Geocoder, *gazetteer.Gazetteer) {
	t.Helper()
	g, err := bundled()
	if err != nil {
		t.Fatal(err)
	}
	return geocode.New(g), g
}

// placeCase is a caption and the place and precision it must be read as.
type placeCase struct {
	text, place string
	precision   geocode.Precision
}

// checkPlaces geocodes each case's caption and reports every one not read
// as its place at its precision; with unsureFallback, a fallback must
// also be under 0.8 (never a sure answer).
func checkPlaces(t *testing.T, gc *geocode.Geocoder, cases []placeCase, unsureFallback bool) {
	t.Helper()
	for _, tt := range cases {
		r := gc.Geocode(caption.Parse(tt.text))
		got := "nothing"
		if r.Place != nil {
			got = r.Place.Name
		}
		if got != tt.place || r.Precision != tt.precision || unsureFallback && r.Precision == geocode.Fallback && r.Confidence >= 0.8 {
			t.Errorf("%q: got %s %s %.2f, want %s %s", tt.text, got, r.Precision, r.Confidence, tt.place, tt.precision)
		}
	}
}

// want is one expected reading of a caption. Place is a name of the
// expected place (any of its spellings); "" means unplaced.
type want struct {
	Text         string  `json:"text"`
	Date         *string `json:"date"`
	Photographer *string `json:"photographer"`
	Agency       *string `json:"agency"`
	Place        *string `json:"place"`
	Kind         string  `json:"kind"`
	Country      string  `json:"country"`
	Precision    string  `json:"precision"`
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func check(t *testing.T, gc *geocode.Geocoder, g *gazetteer.Gazetteer, w want) {
	t.Helper()
	c := caption.Parse(w.Text)
	r := gc.Geocode(c)
	if got := c.Date.String(); got != str(w.Date) {
		t.Errorf("date = %q, want %q", got, str(w.Date))
	}
	if got := c.Credit.Photographer; got != str(w.Photographer) {
		t.Errorf("photographer = %q, want %q", got, str(w.Photographer))
	}
	if got := c.Credit.Agency; got != str(w.Agency) {
		t.Errorf("agency = %q, want %q", got, str(w.Agency))
	}
	switch {
	case w.Place == nil && r.Place != nil:
		t.Errorf("place = %s (%s, %s), want none", r.Place.Name, r.Place.ID, r.Mention)
	case w.Place != nil && r.Place == nil:
		t.Errorf("place = none (%s), want %s", r.Note, *w.Place)
	case w.Place != nil && !isNamed(g, r.Place, *w.Place):
		t.Errorf("place = %s (%s %s, from %q), want %s", r.Place.Name, r.Place.Kind, r.Place.ID, r.Mention, *w.Place)
	case w.Kind != "" && string(r.Place.Kind) != w.Kind:
		t.Errorf("place kind = %s (%s), want %s", r.Place.Kind, r.Place.ID, w.Kind)
	}
	if w.Country != "" && r.Place != nil && r.Place.Country != w.Country {
		t.Errorf("country = %s, want %s", r.Place.Country, w.Country)
	}
	if w.Precision != "" && string(r.Precision) != w.Precision {
		t.Errorf("precision = %s, want %s", r.Precision, w.Precision)
	}
	if t.Failed() {
		t.Logf("caption: %s\nresult: %+v", w.Text, r)
	}
}

// isNamed reports whether one of p's names is a spelling of name.
func isNamed(g *gazetteer.Gazetteer, p *gazetteer.Place, name string) bool {
	for _, q := range g.Lookup(name) {
		if q == p {
			return true
		}
	}
	return false
}

func readWants(t *testing.T, path string) []want {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var ws []want
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var w want
		if err := json.Unmarshal(sc.Bytes(), &w); err != nil {
			t.Fatalf("%s:%d: %v", path, line, err)
		}
		ws = append(ws, w)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return ws
}

// TestRealisticCaptions runs captions written in the styles of Reuters,
// AFP, AP, EPA, Getty, Anadolu and Xinhua, with places inside Syria and
// across its borders, handouts, misspelt months and places the gazetteer
// lacks.
func TestRealisticCaptions(t *testing.T) {
	gc, g := newGeocoder(t)
	files, err := filepath.Glob("testdata/*.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no caption files in testdata: %v", err)
	}
	for _, f := range files {
		for _, w := range readWants(t, f) {
			name := w.Text
			if len(name) > 60 {
				name = name[:60]
			}
			t.Run(name, func(t *testing.T) { check(t, gc, g, w) })
		}
	}
}

// Where people came from is not a sure answer for where the photo was:
// whatever the phrasing, an answer read from an origin stays below 0.8.
func TestOriginIsNeverSure(t *testing.T) {
	gc, _ := newGeocoder(t)
	for _, text := range []string{
		"A woman who fled the centre of Raqqa rests, Syria, June 12, 2017. REUTERS/Goran Tomasevic",
		"Civilians fleeing Manbij wait on a road, Syria, August 2, 2016. (Photo by A. Person/AFP)",
		"A family displaced from Deir ez-Zor sits on a truck, Syria, October 3, 2017. (Photo by A. Person/AP)",
		"Men who were evacuated from Daraya arrive, Syria, August 27, 2016. REUTERS/Omar Sanadiki",
		"A girl who was evacuated with her family from the two besieged Shi'ite towns of Foua and Kefraya waits, Syria, April 15, 2017. REUTERS/Omar Sanadiki",
	} {
		r := gc.Geocode(caption.Parse(text))
		if r.Place != nil && r.Confidence >= 0.8 {
			t.Errorf("%q: %s at %.2f, want below 0.8", text, r.Place.Name, r.Confidence)
		}
	}
}

// A name the caption gives a person, read as a place ("Saad, a teen from
// Raqqa," and a village called Sa'dah), is never a sure answer.
func TestPersonNameIsNoSurePlace(t *testing.T) {
	gc, _ := newGeocoder(t)
	for _, text := range []string{
		"Saad, a teen from Raqqa, poses for a photograph, Syria, May 3, 2016. (Photo by A. Person/AP)",
		"Basi with his son walks to school, Syria, May 3, 2016. (Photo by A. Person/AP)",
	} {
		r := gc.Geocode(caption.Parse(text))
		if r.Place != nil && r.Confidence >= 0.8 {
			t.Errorf("%q: %s at %.2f, want below 0.8", text, r.Place.Name, r.Confidence)
		}
	}
}

// TestStatedSyriaIsNeverAbroad: a caption that says the photo is in Syria
// (", Syria" after the place, or "في … سوريا") is placed in Syria, even
// near a border, where the name could be read across it; one that says
// another country is not placed in Syria. Written captions, so that the
// rule is pinned without the shared evaluation data.
func TestStatedSyriaIsNeverAbroad(t *testing.T) {
	gc, _ := newGeocoder(t)
	for _, tc := range []struct {
		caption string
		inSyria bool
	}{
		{"A boy rides a bicycle in Douma, Syria, March 3, 2016. REUTERS/Bassam Khabieh", true},
		{"Smoke rises over the town of Kobani, Syria, October 20, 2014. REUTERS/Kai Pfaffenbach", true},
		{"Internally displaced children stand near their tent in Ras al-Ain, Syria, January 22, 2017. REUTERS/Rodi Said", true},
		{"Civilians gather in Tal Abyad, Syria, June 16, 2015. REUTERS/Stringer", true},
		{"People walk in a market in Qamishli, Syria, May 2, 2016. REUTERS/Rodi Said", true},
		{"أطفال يلعبون في دوما، سوريا، 3 آذار 2016 (رويترز)", true},
		{"Syrian refugees wait in Gaziantep, Turkey, March 3, 2016. REUTERS/Umit Bektas", false},
		{"Syrian refugees queue at a camp in Mafraq, Jordan, March 3, 2016. REUTERS/Muhammad Hamed", false},
		// A Syrian village's name, said of a crossing into Jordan.
		{"Syrian refugees enter Jordan at the Hadalat crossing, March 3, 2016. REUTERS/Muhammad Hamed", false},
	} {
		res := gc.Geocode(caption.Parse(tc.caption))
		got := res.Place != nil && res.Place.Country == "SY"
		if got != tc.inSyria {
			name := "nowhere"
			if res.Place != nil {
				name = res.Place.Name + " (" + res.Place.Country + ")"
			}
			t.Errorf("%s\n  placed at %s; in Syria: %v, want %v (%s)", tc.caption, name, got, tc.inSyria, res.Note)
		}
	}
}

// A place read from a word inside the longer name of a camp or quarter
// the gazetteer lacks ("Ward" in "Qutaybat al-Ward camp") is never sure
// nor exact: under the low line, saying why (issue 54, defect 6), and a
// fallback, not exact, for the longer name, which is its mention (issue
// 65: it was still badged exact at 0.45); a crossing read inside "the
// Cilvegozu gate" is its own name's, and a camp named by a town is the
// town's fallback as before.
func TestFragmentIsNoSurePlace(t *testing.T) {
	gc, _ := newGeocoder(t)
	for _, c := range []struct {
		name, caption  string
		precision      geocode.Precision
		mention, note  string  // the note holds note
		below, atLeast float64 // the confidence's bounds
	}{
		{"a village inside a camp's name", "Children in Qutaybat al-Ward camp, Syria, January 3, 2019. REUTERS/Khalil Ashawi",
			geocode.Fallback, "Qutaybat al-Ward", "inside the longer name", 0.5, 0},
		{"a crossing inside a gate's name", "Syrian refugees walk through the Turkish Cilvegozu gate, September 2, 2013.",
			geocode.Exact, "Cilvegozu", "", 1, 0.8},
		{"a camp named by its town", "Displaced children at the Atmeh camp, Idlib province, Syria, March 3, 2017.",
			geocode.Fallback, "Atmeh", "placed at Atmeh", 1, 0},
		{"a quarter's whole name", "A boy in the Salaheddine neighbourhood of Aleppo, Syria, May 1, 2016.",
			geocode.Exact, "Salaheddine", "", 1, 0.8},
	} {
		r := gc.Geocode(caption.Parse(c.caption))
		if r.Place == nil || r.Precision != c.precision || r.Mention != c.mention || !strings.Contains(r.Note, c.note) || r.Confidence >= c.below || r.Confidence < c.atLeast {
			name := "nowhere"
			if r.Place != nil {
				name = r.Place.Name
			}
			t.Errorf("%s: %s, %s at %.2f from %q (%q); want %s from %q, confidence in [%.2f, %.2f), a note with %q",
				c.name, name, r.Precision, r.Confidence, r.Mention, r.Note, c.precision, c.mention, c.atLeast, c.below, c.note)
		}
	}
}

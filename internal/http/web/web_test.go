package web

import (
	"bytes"
	"encoding/json"
	"flag"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/paulmach/orb/geojson"

	"github.com/syriamap/syriamap/internal/photo"
)

func TestParseFilter(t *testing.T) {
	for _, tt := range []struct {
		query, param string // param: the one named by the error, "" for none
	}{
		{"from=2016-03&to=2016-05&bbox=36,33,37,34&agency=AFP&agency=AFP&agency=Reuters", ""},
		{"from=March", "from"},
		{"from=2016&to=2015", "to"},
		{"bbox=36,33,37", "bbox"},
		{"bbox=37,33,36,34", "bbox"},
		{"bbox=36,33,37,NaN", "bbox"},
		{"min_confidence=1.5", "min_confidence"},
		{"unplaced=maybe", "unplaced"},
		{"agreement=perhaps", "agreement"},
		{"from=2016&from=2017", "from"},
	} {
		q, _ := url.ParseQuery(tt.query)
		f, err := ParseFilter(q)
		var pe *photo.Error
		switch {
		case tt.param == "" && err != nil:
			t.Errorf("%s: %v", tt.query, err)
		case tt.param != "" && (err == nil || !asParam(err, &pe) || pe.Parameter != tt.param):
			t.Errorf("%s: error %v, want one naming %s", tt.query, err, tt.param)
		}
		if tt.param == "" && (len(f.Agencies) != 2 || f.BBox == nil || f.From.Month != 3) {
			t.Errorf("%s read as %+v", tt.query, f)
		}
	}
}

func asParam(err error, pe **photo.Error) bool {
	e, ok := err.(*photo.Error)
	*pe = e
	return ok
}

// TestAppendFeature: the hand-written encoder writes valid GeoJSON that
// orb reads back, [lon, lat] to 6 decimals, strings escaped for JSON and
// JavaScript alike, and no GPS point unless asked.
func TestAppendFeature(t *testing.T) {
	f := &photo.Feature{ID: "abc", Caption: "a \"quote\", a tab\t and a line separator \u2028 end", Date: photo.Date{Year: 2016, Month: 3, Precision: "month"},
		Agency: "AFP", PlaceName: "Zamalka", Precision: "exact", Confidence: 0.97, Lon: 36.353611, Lat: 33.524722, Located: true,
		Check: photo.Check{GPSLon: 36.4, GPSLat: 33.6, HasGPS: true}}
	b := AppendFeature(nil, f, FeatureLinks{Page: "https://x/photos/abc"}, false)
	if strings.Contains(string(b), "\u2028") {
		t.Error("U+2028 written raw")
	}
	ft, err := geojson.UnmarshalFeature(b)
	if err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	var props map[string]any
	json.Unmarshal(mustProps(t, b), &props)
	if ft.ID != "abc" || !strings.Contains(string(b), `"coordinates":[36.353611,33.524722]`) || props["caption"] != f.Caption ||
		props["date"] != "2016-03-01" || props["url"] != "https://x/photos/abc" {
		t.Errorf("encoded %s", b)
	}
	if props["gps_lon"] != nil || props["gps_lat"] != nil {
		t.Errorf("the GPS point was published: %v, %v", props["gps_lon"], props["gps_lat"])
	}
	if pub := AppendFeature(nil, f, FeatureLinks{}, true); !strings.Contains(string(pub), `"gps_lon":36.4`) {
		t.Errorf("asked for, the GPS point is missing: %s", pub)
	}
	unplaced := AppendFeature(nil, &photo.Feature{ID: "u"}, FeatureLinks{}, false)
	if !strings.Contains(string(unplaced), `"geometry":null`) {
		t.Errorf("an unplaced photo: %s", unplaced)
	}
}

func mustProps(t *testing.T, b []byte) []byte {
	t.Helper()
	var v struct {
		Properties json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v.Properties
}

var update = flag.Bool("update", false, "write assets/src/rules.json")

// TestSiteRules: the bundle's rules.json is what SiteRules says now (run
// with -update to write it after changing a rule).
func TestSiteRules(t *testing.T) {
	path := filepath.Join("..", "..", "..", "assets", "src", "rules.json")
	if *update {
		if err := os.WriteFile(path, SiteRules(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, SiteRules()) {
		t.Errorf("%s is not the server's rules (go test ./internal/web -run TestSiteRules -update, then make assets): %v", path, err)
	}
}

// TestNormalQuery: spellings of one selection have one normal form, and
// queries that select differently never share one (a shared form would
// serve one's cached answer to the other).
func TestNormalQuery(t *testing.T) {
	same := [][]string{
		{"from=2016-01&to=2016-01", "to=2016-01-31&from=2016-01-01", "from=2016-01-01&to=2016-01-31&q="},
		{"bbox=36.20,33.40,36.45,33.60", "bbox=36.2,33.4,36.45,33.6", "bbox=+36.2,33.40,36.450,33.6"},
		{"agency=AFP&agency=Reuters", "agency=Reuters&agency=AFP", "agency=Reuters&agency=AFP&agency=Reuters&agency="},
		{"unplaced=1", "unplaced=true"},
		{"from=2016&limit=10", "limit=10&from=2016-01-01"},
	}
	for _, group := range same {
		want := NormalQuery(parseQuery(t, group[0]))
		for _, q := range group[1:] {
			if got := NormalQuery(parseQuery(t, q)); got != want {
				t.Errorf("%q → %q, but %q → %q", q, got, group[0], want)
			}
		}
	}
	// Each filter parameter, and any other, changes the normal form.
	samples := map[string]string{"from": "2016-02", "to": "2016-02", "bbox": "36,33,37,34", "q": "Aleppo", "agency": "AFP",
		"photographer": "Rodi Said", "place": "ocha:C2320", "governorate": "SY02", "min_confidence": "0.5", "unplaced": "1",
		"agreement": "near", "reuse": "conflict", "event": "ucdp-ged:270123", "verified": "true"}
	seen := map[string]string{NormalQuery(nil): "(none)"}
	for _, name := range append(slices.Clone(FilterParams), "limit", "field", "bin") {
		v, ok := samples[name]
		if !ok {
			v = "3"
		}
		got := NormalQuery(url.Values{name: {v}})
		if other, dup := seen[got]; dup {
			t.Errorf("%s=%s has the normal form of %s: %q", name, v, other, got)
		}
		seen[got] = name
	}
	for _, name := range FilterParams {
		if _, ok := samples[name]; !ok {
			t.Errorf("no sample value for the filter parameter %s: add one, so that its normal form is checked", name)
		}
	}
}

func parseQuery(t *testing.T, q string) url.Values {
	t.Helper()
	v, err := url.ParseQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

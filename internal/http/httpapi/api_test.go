package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/paulmach/orb/geojson"

	"github.com/syriamap/syriamap/geodata"
	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
	"github.com/syriamap/syriamap/internal/pgtest"
	"github.com/syriamap/syriamap/internal/photo"
)

var bundled = sync.OnceValues(func() (*gazetteer.Gazetteer, error) { return gazetteer.Load(geodata.Gazetteer) })

// sampleConfidence is the confidence the geocoder gives the sample
// caption whose answer comes from mention (httpapitest).
func sampleConfidence(t testing.TB, mention string) float64 {
	t.Helper()
	return httpapitest.SampleConfidence(t, mention)
}

func TestMain(m *testing.M) {
	code := pgtest.Main(m)  // a PostgreSQL cluster, if a test starts one
	os.RemoveAll(templates) // the generated archives' templates
	os.Exit(code)
}

// emptyArchive is a new archive over the bundled gazetteer in a
// temporary folder, which it returns too.
func emptyArchive(t testing.TB) (*archive.Archive, string) { return httpapitest.EmptyArchive(t) }

// newTestServer serves the harness's archive of the sample captions plus
// two photos with images, one by URL and one from its media folder.
func newTestServer(t testing.TB) (*Server, *httptest.Server, *archive.Archive) {
	t.Helper()
	a, media := httpapitest.SampleArchive(t)
	ts, s := serveArchive(t, a, Options{Media: media})
	return s, ts, a
}

func get(t testing.TB, ts *httptest.Server, path string, header ...string) (*http.Response, []byte) {
	t.Helper()
	return httpapitest.Get(t, ts, path, header...)
}

func features(t *testing.T, body []byte) *geojson.FeatureCollection {
	t.Helper()
	return httpapitest.Features(t, body)
}

func TestPhotosGeoJSONFilters(t *testing.T) {
	_, ts, _ := newTestServer(t)
	tests := []struct {
		query string
		want  int
	}{
		{"", 18},
		{"?from=2016&to=2016", 11},
		{"?from=2016-07&to=2016-07", 2},
		{"?from=2016-07-12&to=2016-07-12", 1},
		{"?to=2013", 2},
		{"?bbox=37.0,36.1,37.3,36.3", 5},
		{"?q=bread", 1},
		{"?q=%22rebel%20fighter%22", 1},
		{"?agency=AFP", 6},
		{"?photographer=Omar+Sanadiki", 2},
		{"?place=gn:170063", 2},
		{"?governorate=SY02", 6},
		{"?governorate=Aleppo", 6},
		{"?from=2016&agency=Reuters&bbox=35,32,43,38", 7},
	}
	for _, tt := range tests {
		resp, body := get(t, ts, "/api/photos.geojson"+tt.query)
		if resp.StatusCode != 200 {
			t.Errorf("%s: status %d: %s", tt.query, resp.StatusCode, body)
			continue
		}
		if got := len(features(t, body).Features); got != tt.want {
			t.Errorf("%s: %d features, want %d", tt.query, got, tt.want)
		}
	}
	// The confidence filter keeps exactly the answers at or above it:
	// counted from the unfiltered answers, as the samples' confidences
	// move each time the model is refitted.
	_, all := get(t, ts, "/api/photos.geojson")
	want := 0
	for _, f := range features(t, all).Features {
		if c, ok := f.Properties["confidence"].(float64); ok && c >= 0.9 {
			want++
		}
	}
	_, body := get(t, ts, "/api/photos.geojson?min_confidence=0.9")
	if got := len(features(t, body).Features); got != want || want == 0 || want == len(features(t, all).Features) {
		t.Errorf("?min_confidence=0.9: %d features, want the %d of %d at 0.9 or more (some, not all)", got, want, len(features(t, all).Features))
	}
}

func TestPhotoFeatureShape(t *testing.T) {
	_, ts, _ := newTestServer(t)
	_, body := get(t, ts, "/api/photos.geojson?q=Zamalka")
	fc := features(t, body)
	if len(fc.Features) != 1 {
		t.Fatalf("%d features", len(fc.Features))
	}
	f := fc.Features[0]
	if f.Geometry.GeoJSONType() != "Point" || f.ID == nil {
		t.Errorf("geometry %v, id %v", f.Geometry, f.ID)
	}
	if !strings.Contains(string(body), `"coordinates":[36.353610,33.524720]`) {
		t.Errorf("coordinates are not [lon, lat] to 6 decimals: %s", body)
	}
	want := map[string]any{"date": "2016-09-19", "date_precision": "day", "photographer": "Bassam Khabieh", "agency": "Reuters",
		"place_id": "ocha:C2320", "place_name": "Zamalka", "place_kind": "town", "governorate": "Rif Dimashq", "confidence": sampleConfidence(t, "Zamalka"), "mention": "Zamalka"}
	for k, v := range want {
		if f.Properties[k] != v {
			t.Errorf("%s = %v, want %v", k, f.Properties[k], v)
		}
	}
	if u, _ := f.Properties["url"].(string); u != ts.URL+"/photos/"+fmt.Sprint(f.ID) {
		t.Errorf("url = %v", f.Properties["url"])
	}
	// A month-precision photo is dated on the first of its month.
	_, body = get(t, ts, "/api/photos.geojson?q=%22Lawler%22")
	if p := features(t, body).Features[0].Properties; p["date"] != "2013-08-21" {
		t.Errorf("date = %v", p["date"])
	}
	// An unplaced photo has a null geometry.
	_, body = get(t, ts, "/api/photos.geojson?q=homemade")
	if !strings.Contains(string(body), `"geometry":null`) {
		t.Errorf("unplaced photo: %s", body)
	}
}

func TestOnePhoto(t *testing.T) {
	_, ts, a := newTestServer(t)
	ps, _ := a.Photos(context.Background(), storeFilter("Kafranbel town"))
	resp, body := get(t, ts, "/api/photos/"+ps[0].ID+".geojson")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/geo+json" {
		t.Fatalf("status %d %s", resp.StatusCode, body)
	}
	f, err := geojson.UnmarshalFeature(body)
	if err != nil {
		t.Fatal(err)
	}
	if f.ID != ps[0].ID || f.Properties["place_name"] != "Kafr Nabl" || f.Properties["sources"] == nil || f.Properties["alternatives"] == nil {
		t.Errorf("feature = %s", body)
	}
	resp, body = get(t, ts, "/api/photos/nope.geojson")
	if resp.StatusCode != 404 || !strings.Contains(string(body), `"error":"photo nope not found"`) {
		t.Errorf("unknown photo: %d %s", resp.StatusCode, body)
	}
}

func TestBadParameters(t *testing.T) {
	_, ts, _ := newTestServer(t)
	for _, tt := range []struct{ path, param string }{
		{"/api/photos.geojson?from=2016-13", "from"},
		{"/api/photos.geojson?to=yesterday", "to"},
		{"/api/photos.geojson?from=2017&to=2016", "to"},
		{"/api/photos.geojson?bbox=1,2,3", "bbox"},
		{"/api/photos.geojson?bbox=40,30,35,37", "bbox"},
		{"/api/photos.geojson?bbox=0,0,200,10", "bbox"},
		{"/api/photos.csv?min_confidence=2", "min_confidence"},
		{"/api/photos.geojsonl?q=%22open", "q"},
		{"/api/timeline?bin=week", "bin"},
		{"/api/facets?limit=0", "limit"},
		{"/api/places.geojson?from=x", "from"},
		{"/api/photos.geojson?limit=-1", "limit"},
	} {
		resp, body := get(t, ts, tt.path)
		var e struct{ Error, Parameter string }
		json.Unmarshal(body, &e)
		if resp.StatusCode != 400 || e.Parameter != tt.param || e.Error == "" || resp.Header.Get("Content-Type") != "application/json" {
			t.Errorf("%s: %d %s, want 400 naming %s", tt.path, resp.StatusCode, body, tt.param)
		}
	}
	resp, _ := get(t, ts, "/api/nothing")
	if resp.StatusCode != 404 {
		t.Errorf("unknown route: %d", resp.StatusCode)
	}
	req, _ := http.NewRequest("POST", ts.URL+"/api/photos.geojson", nil)
	r2, _ := http.DefaultClient.Do(req)
	if r2.StatusCode != 405 {
		t.Errorf("POST: %d, want 405", r2.StatusCode)
	}
}

func storeFilter(q string) photo.Filter { return photo.Filter{Query: q} }

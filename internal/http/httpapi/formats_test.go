package httpapi

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"image/jpeg"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paulmach/orb/geojson"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/store"
)

func TestGeoJSONSeqAndCSV(t *testing.T) {
	_, ts, _ := newTestServer(t)
	resp, body := get(t, ts, "/api/photos.geojsonl?from=2016")
	if resp.Header.Get("Content-Type") != "application/geo+json-seq" {
		t.Errorf("content type %s", resp.Header.Get("Content-Type"))
	}
	records := strings.Split(strings.TrimSuffix(string(body), "\n"), "\n")
	if len(records) != 12 {
		t.Fatalf("%d records", len(records))
	}
	for _, rec := range records {
		if rec[0] != 0x1e {
			t.Fatalf("record without a record separator: %q", rec[:20])
		}
		if _, err := geojson.UnmarshalFeature([]byte(rec[1:])); err != nil {
			t.Fatalf("record is not a Feature: %v", err)
		}
	}
	resp, body = get(t, ts, "/api/photos.csv?from=2016")
	rows, err := csv.NewReader(bytes.NewReader(body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 13 || strings.Join(rows[0][:3], ",") != "id,lon,lat" || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/csv") {
		t.Errorf("csv: %d rows, header %v", len(rows), rows[0])
	}
}

func TestCachingCompressionAndDownload(t *testing.T) {
	_, ts, a := newTestServer(t)
	resp, _ := get(t, ts, "/api/photos.geojson?from=2016")
	tag := resp.Header.Get("ETag")
	if tag == "" {
		t.Fatal("no ETag")
	}
	resp, body := get(t, ts, "/api/photos.geojson?from=2016", "If-None-Match", tag)
	if resp.StatusCode != 304 || len(body) != 0 {
		t.Errorf("If-None-Match: %d with %d bytes, want 304", resp.StatusCode, len(body))
	}
	if r2, _ := get(t, ts, "/api/photos.geojson?from=2015", "If-None-Match", tag); r2.StatusCode != 200 {
		t.Errorf("another query shared the ETag")
	}
	// A change to the archive changes the ETag.
	ps, _ := a.Photos(t.Context(), storeFilter("Bishqatin"))
	if err := a.SetPlace(t.Context(), ps[0].ID, "gn:170063", nil, "test"); err != nil {
		t.Fatal(err)
	}
	if r3, _ := get(t, ts, "/api/photos.geojson?from=2016", "If-None-Match", tag); r3.StatusCode != 200 || r3.Header.Get("ETag") == tag {
		t.Errorf("the ETag did not change with the archive")
	}
	resp, body = get(t, ts, "/api/photos.geojson?from=2016&to=2016&download=1", "Accept-Encoding", "gzip")
	if resp.Header.Get("Content-Encoding") != "gzip" || len(features(t, body).Features) != 11 {
		t.Errorf("gzip: encoding %q", resp.Header.Get("Content-Encoding"))
	}
	if cd := resp.Header.Get("Content-Disposition"); cd != `attachment; filename="syriamap-photos-2016-01-01_2016-12-31.geojson"` {
		t.Errorf("Content-Disposition = %q", cd)
	}
	resp, _ = get(t, ts, "/api/photos.csv?agency=AFP&download=1")
	if cd := resp.Header.Get("Content-Disposition"); cd != `attachment; filename="syriamap-photos-filtered.csv"` {
		t.Errorf("Content-Disposition = %q", cd)
	}
}

func TestHeadersAndHealth(t *testing.T) {
	_, ts, _ := newTestServer(t)
	for _, path := range []string{"/healthz", "/api/photos.geojson", "/api/nope", "/api/photos.geojson?bbox=x"} {
		resp, _ := get(t, ts, path)
		h := resp.Header
		if !strings.Contains(h.Get("Content-Security-Policy"), "default-src 'self'") || !strings.Contains(h.Get("Content-Security-Policy"), "frame-ancestors 'none'") ||
			h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") == "" {
			t.Errorf("%s: security headers missing: %v", path, h)
		}
	}
	resp, body := get(t, ts, "/healthz")
	if resp.StatusCode != 200 || strings.TrimSpace(string(body)) != "ok" {
		t.Errorf("healthz: %d %q", resp.StatusCode, body)
	}
}

func TestTimelineFacetsPlaces(t *testing.T) {
	_, ts, _ := newTestServer(t)
	_, body := get(t, ts, "/api/timeline?bin=month&agency=Reuters")
	var tl struct {
		Bin    string
		Total  int
		Counts []struct {
			Bin   string
			Count int
		}
	}
	json.Unmarshal(body, &tl)
	if tl.Bin != "month" || tl.Total != 10 || tl.Counts[0].Bin != "2014-12" {
		t.Errorf("timeline: %s", body)
	}
	_, body = get(t, ts, "/api/timeline?bin=year")
	if !strings.Contains(string(body), `{"bin":"2016","count":11}`) {
		t.Errorf("yearly timeline: %s", body)
	}
	_, body = get(t, ts, "/api/facets?from=2016")
	var fc struct {
		Photos, Of int
		Agencies   []struct {
			Value string
			Count int
		}
	}
	json.Unmarshal(body, &fc)
	if fc.Photos != 12 || fc.Of != 18 || fc.Agencies[0].Value != "Reuters" {
		t.Errorf("facets: %s", body)
	}
	_, body = get(t, ts, "/api/places.geojson")
	places := features(t, body)
	if len(places.Features) == 0 || places.Features[0].Properties["photos"].(float64) < 2 {
		t.Errorf("places: %s", body)
	}
}

func TestMedia(t *testing.T) {
	_, ts, _ := newTestServer(t)
	_, body := get(t, ts, "/api/photos.geojson?q=Kafranbel+Children")
	p := features(t, body).Features[0].Properties
	img, _ := p["image_url"].(string)
	th, _ := p["thumbnail_url"].(string)
	if !strings.HasSuffix(img, "/media/2016/kafranbel.png") || !strings.HasSuffix(th, "/media/thumb/2016/kafranbel.png") {
		t.Fatalf("image %q, thumbnail %q", img, th)
	}
	// The image is served as a derivative, as /images serves imported
	// files: a JPEG of at most 1,280 px with no metadata.
	resp, body := get(t, ts, strings.TrimPrefix(img, ts.URL))
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/jpeg" {
		t.Errorf("image: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if cfg, err := jpeg.DecodeConfig(bytes.NewReader(body)); err != nil || cfg.Width != 800 || cfg.Height != 400 {
		t.Errorf("image is %dx%d (%v), want the 800x400 picture", cfg.Width, cfg.Height, err)
	}
	resp, body = get(t, ts, strings.TrimPrefix(th, ts.URL)+"?size=100")
	if resp.StatusCode != 200 {
		t.Fatalf("thumbnail: %d %s", resp.StatusCode, body)
	}
	if cfg, err := jpeg.DecodeConfig(bytes.NewReader(body)); err != nil || cfg.Width != 100 || cfg.Height != 50 {
		t.Errorf("thumbnail is %dx%d (%v), want 100x50", cfg.Width, cfg.Height, err)
	}
	for _, bad := range []string{"/media/../secret.txt", "/media/2016/..%2F..%2Fsecret.txt", "/media/thumb/../../secret.txt", "/media/missing.jpg"} {
		resp, body := get(t, ts, bad)
		if resp.StatusCode == 200 || strings.Contains(string(body), "not for you") {
			t.Errorf("%s: %d %s", bad, resp.StatusCode, body)
		}
	}
	// A photo with an image_url links to it.
	_, body = get(t, ts, "/api/photos.geojson?q=Katan")
	if p := features(t, body).Features[0].Properties; p["image_url"] != "https://example.org/a.jpg" {
		t.Errorf("image_url = %v", p["image_url"])
	}
}

// TestRangesMatchOneQuery checks that the parallel, range-by-range stream
// of the archive at large writes exactly what one query does, whatever the
// page asked for.
func TestRangesMatchOneQuery(t *testing.T) {
	s, ts, _ := newTestServer(t)
	paths := []string{"/api/photos.geojson", "/api/photos.geojsonl", "/api/photos.csv"}
	pages := []string{"", "?limit=1", "?limit=5", "?offset=3", "?offset=2&limit=7", "?offset=1000", "?min_confidence=0.5"}
	serve := func(rows int64) map[string]string {
		defer func(old int64) { s.stream.ChunkRows = old }(s.stream.ChunkRows)
		s.stream.ChunkRows = rows
		got := map[string]string{}
		for _, p := range paths {
			for _, q := range pages {
				resp, body := get(t, ts, p+q)
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("%s%s: %d %s", p, q, resp.StatusCode, body)
				}
				got[p+q] = string(body)
				// Gzipped, the ranges are compressed apart and joined;
				// read back (CRC and length checked) it is the same.
				resp, body = get(t, ts, p+q, "Accept-Encoding", "gzip")
				if (len(body) > 0 && resp.Header.Get("Content-Encoding") != "gzip") || string(body) != got[p+q] {
					t.Errorf("%s%s, ranges of %d rows: gzipped (%q) differs from plain:\n got %s\nwant %s",
						p, q, rows, resp.Header.Get("Content-Encoding"), body, got[p+q])
				}
			}
		}
		return got
	}
	one := serve(1 << 40)
	for _, rows := range []int64{1, 3, 4} {
		ranged := serve(rows)
		for k, want := range one {
			if ranged[k] != want {
				t.Errorf("ranges of %d rows, %s:\n got %s\nwant %s", rows, k, ranged[k], want)
			}
		}
	}
	if !strings.Contains(one["/api/photos.csv?offset=2&limit=7"], "\n") || strings.Count(one["/api/photos.geojsonl?limit=5"], "\x1e") != 5 {
		t.Errorf("the pages are not what they ask for: %q", one["/api/photos.geojsonl?limit=5"])
	}
}

// TestPoints checks the map's compact form against the GeoJSON of the
// same selection.
func TestPoints(t *testing.T) {
	_, ts, _ := newTestServer(t)
	for _, q := range []string{"", "?from=2016&to=2016", "?agency=AFP"} {
		_, body := get(t, ts, "/api/points.json"+q)
		var pts struct {
			Fields []string
			Points [][]any
		}
		if err := json.Unmarshal(body, &pts); err != nil {
			t.Fatalf("%s: %v\n%s", q, err, body)
		}
		_, body = get(t, ts, "/api/photos.geojson"+q)
		fc := features(t, body)
		if len(pts.Points) != len(fc.Features) || len(pts.Fields) != 7 {
			t.Fatalf("%s: %d points, %d features", q, len(pts.Points), len(fc.Features))
		}
		for i, p := range pts.Points {
			f := fc.Features[i]
			if p[0] != f.ID {
				t.Errorf("%s: point %d is %v, feature %v", q, i, p[0], f.ID)
			}
			date := f.Properties.MustString("date", "")
			if want := strings.ReplaceAll(date, "-", ""); date != "" && fmt.Sprint(int(p[3].(float64))) != want {
				t.Errorf("%s: point %v starts %v, the feature's date is %s", q, p[0], p[3], date)
			}
			if (f.Geometry == nil) != (p[1] == nil) {
				t.Errorf("%s: point %v lon %v, geometry %v", q, p[0], p[1], f.Geometry)
			}
			if want := web.MetadataCode(f.Properties.MustString("agreement", "")); p[6] != float64(want) {
				t.Errorf("%s: point %v metadata %v, the feature's agreement %v", q, p[0], p[6], f.Properties["agreement"])
			}
		}
	}
}

// TestClusters checks the server-side clusters against the points.
func TestClusters(t *testing.T) {
	_, ts, _ := newTestServer(t)
	var out struct {
		Matching int
		Clusters []struct {
			Lon, Lat  float64
			Count     int
			ID        string
			Placement *int
		}
	}
	for _, c := range []struct {
		query string
		many  bool // more than one cell
	}{
		{"?zoom=0", false}, // cells of 84°
		{"?zoom=12&from=2016&to=2016", true},
		{"?zoom=12&bbox=36,33,37,34", true},
	} {
		_, body := get(t, ts, "/api/clusters"+c.query)
		if err := json.Unmarshal(body, &out); err != nil {
			t.Fatalf("%s: %v\n%s", c.query, err, body)
		}
		_, body = get(t, ts, "/api/points.json"+strings.Replace(c.query, "zoom=", "z=", 1))
		var pts struct{ Points [][]any }
		json.Unmarshal(body, &pts)
		placed := 0
		for _, p := range pts.Points {
			if p[1] != nil {
				placed++
			}
		}
		sum := 0
		for _, cl := range out.Clusters {
			sum += cl.Count
			if (cl.Count == 1) != (cl.ID != "" && cl.Placement != nil) {
				t.Errorf("%s: a cell of %d has id %q", c.query, cl.Count, cl.ID)
			}
		}
		if sum != placed || (len(out.Clusters) > 1) != c.many {
			t.Errorf("%s: %d cells of %d photos; the points have %d placed", c.query, len(out.Clusters), sum, placed)
		}
	}
	for _, bad := range []string{"", "?zoom=x", "?zoom=40"} {
		if resp, body := get(t, ts, "/api/clusters"+bad); resp.StatusCode != 400 || !strings.Contains(string(body), `"parameter":"zoom"`) {
			t.Errorf("clusters%s: %d %s", bad, resp.StatusCode, body)
		}
	}
}

func TestOrderNewestAndPaging(t *testing.T) {
	_, ts, _ := newTestServer(t)
	_, body := get(t, ts, "/api/photos.geojson?order=newest")
	all := features(t, body).Features
	last := "9999-99-99"
	undated := false
	for _, f := range all {
		d := f.Properties.MustString("date", "")
		switch {
		case d == "":
			undated = true
		case undated || d > last:
			t.Errorf("order=newest: %s after %s (undated seen: %v)", d, last, undated)
		default:
			last = d
		}
	}
	_, body = get(t, ts, "/api/photos.geojson?order=newest&limit=5&offset=5")
	page := features(t, body).Features
	if len(page) != 5 || page[0].ID != all[5].ID || page[4].ID != all[9].ID {
		t.Errorf("the second page of 5 is not photos 6–10")
	}
	if resp, body := get(t, ts, "/api/photos.geojson?order=random"); resp.StatusCode != 400 || !strings.Contains(string(body), `"parameter":"order"`) {
		t.Errorf("order=random: %d %s", resp.StatusCode, body)
	}
}

// TestFacetsFollowImports checks that cached facet counts are dropped when
// the archive changes.
func TestFacetsFollowImports(t *testing.T) {
	_, ts, a := newTestServer(t)
	agencies := func() map[string]float64 {
		_, body := get(t, ts, "/api/facets")
		var fc struct {
			Agencies []struct {
				Value string
				Count float64
			}
		}
		if err := json.Unmarshal(body, &fc); err != nil {
			t.Fatalf("%v\n%s", err, body)
		}
		out := map[string]float64{}
		for _, c := range fc.Agencies {
			out[c.Value] = c.Count
		}
		return out
	}
	before := agencies()
	if again := agencies(); again["Reuters"] != before["Reuters"] {
		t.Fatalf("the same question, another answer: %v, %v", before, again)
	}
	file := filepath.Join(t.TempDir(), "more.txt")
	os.WriteFile(file, []byte("A man walks in Idlib, Syria, May 2, 2016. REUTERS/Ammar Abdullah\n"), 0o644)
	if _, err := a.ImportFile(context.Background(), file, "", nil); err != nil {
		t.Fatal(err)
	}
	if after := agencies(); after["Reuters"] != before["Reuters"]+1 {
		t.Errorf("Reuters had %v photos, after one more import %v", before["Reuters"], after["Reuters"])
	}
}

// TestFacetCacheAtVersionZero: a new, empty archive is at version 0, the
// cache's zero value; its facets are counted and cached all the same.
func TestFacetCacheAtVersionZero(t *testing.T) {
	g, err := bundled()
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "empty.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s, err := New(archive.New(db, g), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := s.facetCache.Facets(context.Background(), photo.Filter{}, 50); err != nil {
			t.Fatal(err)
		}
	}
}

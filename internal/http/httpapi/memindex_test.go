package httpapi

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/encoding/mvt"
	"github.com/paulmach/orb/maptile"
	"github.com/paulmach/orb/maptile/tilecover"
	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/geoparse/gen"
	"github.com/syriamap/syriamap/internal/ingest"
	"github.com/syriamap/syriamap/internal/store"
)

// genServers serves one archive of n generated photos twice: with the
// memory index, built before the test goes on, and without it.
func genServers(t testing.TB, n int) (withIndex, sqlite *httptest.Server) {
	t.Helper()
	a := genArchive(t, 3, n)
	withIndex, s := serveArchive(t, a, Options{})
	sqlite, _ = serveArchive(t, a, Options{NoMemIndex: true})
	// The two serve different base URLs: compare links after the base.
	waitForIndex(t, s)
	return withIndex, sqlite
}

// genArchive is an archive of n captions generated from seed, then the
// captions more.
func genArchive(t testing.TB, seed uint64, n int, more ...string) *archive.Archive {
	t.Helper()
	g, err := bundled()
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "a.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	a := archive.New(db, g)
	gn := gen.New(g, seed)
	var recs []store.Record
	for i := range n {
		recs = append(recs, store.Record{Photo: a.Build(ingestRecord(gn.Caption())), Line: i + 1})
	}
	for i, c := range more {
		recs = append(recs, store.Record{Photo: a.Build(ingestRecord(c)), Line: n + i + 1})
	}
	if _, err := db.ImportFile(context.Background(), "gen.txt", store.Records(recs), nil); err != nil {
		t.Fatal(err)
	}
	return a
}

// TestMemIndexMatchesSQLite: on random windows, boxes, limits and
// offsets, the memory index's gzipped answer decompresses to the bytes
// the SQLite path writes (links aside, which name each server).
func TestMemIndexMatchesSQLite(t *testing.T) {
	withIndex, sqlite := genServers(t, 3000)
	rng := rand.New(rand.NewPCG(4, 5))
	queries := []string{"", "?from=2014-03&to=2014-03", "?from=2016", "?to=2013-01", "?from=2015-01-10&to=2015-01-20",
		"?bbox=36,33,38,37", "?from=2014&to=2014&limit=7&offset=3", "?from=2017-12&to=2012-01"}
	for i := 0; i < 60; i++ {
		y, m := 2012+rng.IntN(6), 1+rng.IntN(12)
		lon, lat := 35.5+rng.Float64()*6, 32.5+rng.Float64()*4.5
		q := fmt.Sprintf("?from=%d-%02d&to=%d-%02d&bbox=%.4f,%.4f,%.4f,%.4f", y, m, y, m, lon, lat, lon+rng.Float64()*2, lat+rng.Float64()*2)
		if i%3 == 0 {
			q = fmt.Sprintf("?from=%d-%02d-%02d&to=%d-%02d-28", y, m, 1+rng.IntN(27), y, m)
		}
		queries = append(queries, q)
	}
	var paths []string
	for _, q := range queries {
		paths = append(paths, "/api/photos.geojson"+q)
	}
	// OGC pages, as a GIS client asks for them: a box, a limit, a cursor.
	for _, q := range []string{"limit=50", "limit=1000&bbox=36,33,38,37", "limit=20&offset=40&bbox=36.5,34,37.5,37",
		"limit=100&cursor=1500", "limit=100&cursor=1500&bbox=36,33,38,37", "limit=10000"} {
		paths = append(paths, "/ogc/collections/photos/items?f=json&"+q)
	}
	stamp := regexp.MustCompile(`"timeStamp":"[^"]*"`)
	for _, q := range paths {
		a, ra := getGzip(t, withIndex, q)
		b, rb := getGzip(t, sqlite, q)
		if ra.StatusCode == 200 && ra.Header.Get("Content-Encoding") != "gzip" {
			t.Fatalf("%s: not gzipped", q)
		}
		a, b = stamp.ReplaceAll(a, nil), stamp.ReplaceAll(b, nil)
		if ra.StatusCode != rb.StatusCode {
			t.Fatalf("%s: %d and %d", q, ra.StatusCode, rb.StatusCode)
		}
		a = bytesReplaceAll(a, withIndex.URL, "BASE")
		b = bytesReplaceAll(b, sqlite.URL, "BASE")
		if string(a) != string(b) {
			t.Fatalf("%s: the memory index wrote %d bytes, SQLite %d:\n%.300s\n%.300s", q, len(a), len(b), a, b)
		}
		// Both are about the size a streamed gzip makes (issue 27).
		for _, ts := range []*httptest.Server{withIndex, sqlite} {
			if ra.StatusCode != 200 {
				break
			}
			wire, body := wireBytes(t, ts, q)
			if limit := 1.15 * float64(streamedGzip(body)); float64(wire) > limit {
				t.Errorf("%s: %d bytes on the wire, over 1.15× a streamed gzip (%.0f)", q, wire, limit/1.15)
			}
		}
	}
}

// wireBytes returns how many bytes a gzip response of path takes on the
// wire, and its body.
func wireBytes(t testing.TB, ts *httptest.Server, path string) (int, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", ts.URL+path, nil)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := (&http.Client{Transport: &http.Transport{DisableCompression: true}}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	wire, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(wire))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	body, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return len(wire), body
}

// streamedGzip is the size of body gzipped as one stream at the default
// level of Go's own compress/gzip.
func streamedGzip(body []byte) int {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(body)
	zw.Close()
	return b.Len()
}

// TestMemIndexFollowsTheArchive: a change to the archive is served at
// once (from SQLite until the index is built again), never a stale index.
func TestMemIndexFollowsTheArchive(t *testing.T) {
	s, ts, a := newTestServer(t)
	q := "/api/photos.geojson?from=2016&to=2016"
	// The index is built, and answers.
	waitForIndex(t, s)
	before, resp := getGzip(t, ts, q)
	if resp.Header.Get("Content-Encoding") != "gzip" {
		t.Fatal("the window was not served gzipped")
	}
	path := filepath.Join(t.TempDir(), "new.txt")
	writeFile(t, path, "Boys play football in Binnish, Idlib, Syria, May 5, 2016. REUTERS/Ammar Abdullah\n")
	if _, err := a.ImportFile(context.Background(), path, "", nil); err != nil {
		t.Fatal(err)
	}
	after, _ := getGzip(t, ts, q)
	if n, m := countFeatures(before), countFeatures(after); m != n+1 {
		t.Errorf("after an import %d features, before %d", m, n)
	}
}

// waitForIndex waits, on the index's own signal, until the memory index
// of the archive as it is now is built.
func waitForIndex(t testing.TB, s *Server) {
	t.Helper()
	v, err := s.db.Version(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := s.memIndex.Wait(ctx, v, s.baseURL); err != nil {
		t.Fatalf("the memory index was not built in a minute: %v", err)
	}
}

func getGzip(t testing.TB, ts *httptest.Server, path string) ([]byte, *http.Response) {
	t.Helper()
	resp, body := get(t, ts, path, "Accept-Encoding", "gzip")
	return body, resp
}

func ingestRecord(caption string) ingest.Record { return ingest.Record{Caption: caption} }

func writeFile(t testing.TB, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func countFeatures(b []byte) int { return bytes.Count(b, []byte(`{"type":"Feature",`)) }

func bytesReplaceAll(b []byte, old, new string) []byte {
	return bytes.ReplaceAll(b, []byte(old), []byte(new))
}

// BenchmarkMemIndexWindow serves month + city-box windows from the
// memory index through the handler, as the bench's wrk does (gzip asked
// for), on 50,000 generated photos: with -cpuprofile, what limits the
// read path now.
func BenchmarkMemIndexWindow(b *testing.B) {
	withIndex, _ := genServers(b, 50_000)
	h := withIndex.Config.Handler
	rng := rand.New(rand.NewPCG(1, 1))
	boxes := [][4]float64{{37.05, 36.10, 37.25, 36.30}, {36.20, 33.40, 36.45, 33.60}, {36.60, 34.65, 36.80, 34.80}, {36.55, 35.85, 36.75, 36.00}}
	b.ResetTimer()
	for b.Loop() {
		bx := boxes[rng.IntN(len(boxes))]
		d := (rng.Float64()*2 - 1) * 0.0045
		m := fmt.Sprintf("%d-%02d", 2012+rng.IntN(6), 1+rng.IntN(12))
		req := httptest.NewRequest("GET", fmt.Sprintf("/api/photos.geojson?from=%s&to=%s&bbox=%.5f,%.5f,%.5f,%.5f", m, m, bx[0]+d, bx[1]+d, bx[2]+d, bx[3]+d), nil)
		req.Header.Set("Accept-Encoding", "gzip")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 200 {
			b.Fatal(rec.Code)
		}
	}
}

// TestMemIndexClustersMatchSQLite: the map's server clusters and the
// vector tiles' clusters read from the memory index are those SQLite
// makes — the same cells, counts, points (to the 6 decimals written, or
// the tile's grid) and single photos — on random windows and zooms.
func TestMemIndexClustersMatchSQLite(t *testing.T) {
	withIndex, sqlite := genServers(t, 3000)
	rng := rand.New(rand.NewPCG(6, 7))
	type cluster struct {
		Lon, Lat float64
		Count    int
		ID       string
	}
	read := func(ts *httptest.Server, q string) (int, []cluster) {
		_, body := get(t, ts, "/api/clusters"+q)
		var out struct {
			Matching int       `json:"matching"`
			Clusters []cluster `json:"clusters"`
		}
		if err := json.Unmarshal(body, &out); err != nil {
			t.Fatalf("%s: %v: %.200s", q, err, body)
		}
		return out.Matching, out.Clusters
	}
	near := func(a, b cluster) bool {
		return a.Count == b.Count && a.ID == b.ID && math.Abs(a.Lon-b.Lon) < 2e-6 && math.Abs(a.Lat-b.Lat) < 2e-6
	}
	for range 30 {
		y, m := 2012+rng.IntN(6), 1+rng.IntN(12)
		q := fmt.Sprintf("?zoom=%d&from=%d-%02d&to=%d-%02d", 5+rng.IntN(8), y, m, y+rng.IntN(2), m)
		if rng.IntN(2) == 0 {
			q += fmt.Sprintf("&bbox=%.3f,%.3f,%.3f,%.3f", 35.5+rng.Float64()*3, 32.5+rng.Float64()*2, 38.5+rng.Float64()*3, 35+rng.Float64()*2)
		}
		na, a := read(withIndex, q)
		nb, b := read(sqlite, q)
		if na != nb || len(a) != len(b) {
			t.Fatalf("%s: the memory index counts %d in %d clusters, SQLite %d in %d", q, na, len(a), nb, len(b))
		}
		for i := range a {
			if !near(a[i], b[i]) {
				t.Fatalf("%s: cluster %d is %+v from the memory index, %+v from SQLite", q, i, a[i], b[i])
			}
		}
	}
	// Tiles: the same features, decoded, in every tile over Syria at
	// three zooms (the memory index cuts them from one clustering of the
	// window at each zoom); every placed photo of the window in one.
	var tiles []string
	for _, window := range []string{"?from=2014&to=2014", "?from=2015-03&to=2015-03", ""} {
		_, body := get(t, sqlite, "/api/photos.geojson"+window)
		// Over every placed photo: Syria's and its neighbours' (a camp in
		// Iraqi Kurdistan is east of Syria's bound).
		placed, over := 0, orb.Bound{Min: orb.Point{35.5, 32.2}, Max: orb.Point{42.5, 37.5}}
		for _, f := range features(t, body).Features {
			if f.Geometry != nil {
				placed++
				over = over.Union(f.Geometry.Bound())
			}
		}
		for _, z := range []maptile.Zoom{5, 7, 9} {
			counted := 0
			for tl := range tilecover.Bound(over, z) {
				tile := fmt.Sprintf("/tiles/photos/%d/%d/%d.mvt%s", z, tl.X, tl.Y, window)
				tiles = append(tiles, tile)
				_, b := get(t, withIndex, tile)
				ls, err := mvt.Unmarshal(b)
				if err != nil {
					t.Fatalf("%s: %v", tile, err)
				}
				for _, l := range ls {
					for _, f := range l.Features {
						counted += int(f.Properties["count"].(float64))
					}
				}
			}
			if counted != placed {
				t.Errorf("window %q, zoom %d: the tiles count %d photos, the window has %d placed", window, z, counted, placed)
			}
		}
	}
	for _, tile := range tiles {
		_, ta := get(t, withIndex, tile)
		_, tb := get(t, sqlite, tile)
		la, err := mvt.Unmarshal(ta)
		if err != nil {
			t.Fatalf("%s: %v", tile, err)
		}
		lb, err := mvt.Unmarshal(tb)
		if err != nil {
			t.Fatalf("%s: %v", tile, err)
		}
		fa, fb := tileFeatures(la), tileFeatures(lb)
		if !slices.Equal(fa, fb) {
			t.Fatalf("%s: the memory index's tile holds %d features, SQLite's %d:\n%v\n%v", tile, len(fa), len(fb), fa, fb)
		}
	}
}

// tileFeatures lists a tile's features as text, sorted.
func tileFeatures(ls mvt.Layers) []string {
	var out []string
	for _, l := range ls {
		for _, f := range l.Features {
			out = append(out, fmt.Sprintf("%v %v %v %v %v", f.Geometry, f.Properties["count"], f.Properties["id"], f.Properties["date"], f.Properties["precision"]))
		}
	}
	slices.Sort(out)
	return out
}

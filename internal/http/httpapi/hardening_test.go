package httpapi

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/syriamap/syriamap/geodata"
	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/http/featurestream"
	"github.com/syriamap/syriamap/internal/http/lane"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/store"
)

// TestMediaServesOnlyImages: a page or script in the media folder, under
// any name, must not run as the site (it could read the whole API).
func TestMediaServesOnlyImages(t *testing.T) {
	s, ts, _ := newTestServer(t)
	for _, name := range []string{"evil.html", "evil.js", "evil.svg", "evil.jpg"} {
		resp, body := get(t, ts, "/media/"+name)
		if resp.StatusCode != http.StatusForbidden || strings.Contains(string(body), "<script>") {
			t.Errorf("/media/%s: %d %s %q", name, resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
	}
	resp, _ := get(t, ts, "/media/2016/kafranbel.png")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/jpeg" || !strings.Contains(resp.Header.Get("Content-Security-Policy"), "sandbox") {
		t.Errorf("an image: %d %s, CSP %q", resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Content-Security-Policy"))
	}
	// With --serve-originals, the file itself, still only an image.
	ts, _ = serveArchive(t, s.archive, Options{Media: s.images.Media(), ServeOriginals: true})
	resp, _ = get(t, ts, "/media/2016/kafranbel.png")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/png" {
		t.Errorf("the original: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	for _, name := range []string{"evil.html", "evil.svg"} {
		if resp, _ := get(t, ts, "/media/"+name); resp.StatusCode != http.StatusForbidden {
			t.Errorf("original /media/%s: %d", name, resp.StatusCode)
		}
	}
}

// TestCSVCellsAreInert: values from third parties' files that a
// spreadsheet would run as formulas are written as text.
func TestCSVCellsAreInert(t *testing.T) {
	_, ts, a := newTestServer(t)
	importText(t, a, "formulas.csv", "caption,photographer,agency,image_url\n"+
		`"=HYPERLINK(""http://evil.example"",""click"") in Aleppo, Syria, May 2, 2016","+Jane Doe","@AFP","-1+1"`+"\n")
	_, body := get(t, ts, "/api/photos.csv?q=HYPERLINK")
	rows, err := csv.NewReader(bytes.NewReader(body)).ReadAll()
	if err != nil || len(rows) != 2 {
		t.Fatalf("%d rows, %v: %s", len(rows), err, body)
	}
	for i, cell := range rows[1] {
		if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
			t.Errorf("column %s = %q starts a formula", rows[0][i], cell)
		}
	}
	if got := rows[1][5]; got != `'=HYPERLINK("http://evil.example","click") in Aleppo, Syria, May 2, 2016` {
		t.Errorf("caption = %q", got)
	}
	// Numbers stay numbers (a western longitude starts with -).
	if web.Inert("-1.5") != "'-1.5" || rows[1][1] == "" || strings.HasPrefix(rows[1][1], "'") {
		t.Errorf("lon column %q", rows[1][1])
	}
}

// TestStreamFailureAbortsTheConnection: an error after the status is sent
// must reach the client as a failed transfer, never as a complete-looking
// 200.
func TestStreamFailureAbortsTheConnection(t *testing.T) {
	s, ts, _ := newTestServer(t)
	s.stream.ChunkRows = 2
	var chunks atomic.Int32
	s.stream.ReadChunk = func(ctx context.Context, f photo.Filter, c featurestream.Chunk, fn func(*photo.Feature) error) error {
		if chunks.Add(1) > 3 {
			return errors.New("disk gone")
		}
		return s.stream.Read(ctx, f, c, fn)
	}
	for _, path := range []string{"/api/photos.geojson", "/api/photos.csv?from=2012", "/api/photos.geojsonl?order=newest"} {
		for _, enc := range []string{"identity", "gzip"} {
			chunks.Store(0)
			req, _ := http.NewRequest("GET", ts.URL+path, nil)
			req.Header.Set("Accept-Encoding", enc)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				continue // cut before the headers went: a failure too
			}
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err == nil {
				t.Errorf("%s (%s): a failed stream read as complete (%d, %d bytes)", path, enc, resp.StatusCode, len(body))
			}
		}
	}
}

// TestLinksIgnoreTheHostHeader: a client's Host header must not end up in
// downloads (a shared cache would serve them to others).
func TestLinksIgnoreTheHostHeader(t *testing.T) {
	_, ts, _ := newTestServer(t)
	for _, path := range []string{"/api/photos.geojson", "/api/photos.csv"} {
		req, _ := http.NewRequest("GET", ts.URL+path, nil)
		req.Host = "evil.example"
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if bytes.Contains(body, []byte("evil.example")) || !bytes.Contains(body, []byte(ts.URL+"/photos/")) {
			t.Errorf("%s: links do not use the base URL: %.300s", path, body)
		}
	}
}

// TestMethodsHeadAndETags: 405 names the methods allowed; HEAD on a
// download gives GET's headers without reading a photo; a gzipped and a
// plain body have different ETags.
func TestMethodsHeadAndETags(t *testing.T) {
	s, ts, _ := newTestServer(t)
	req, _ := http.NewRequest("POST", ts.URL+"/api/photos.geojson", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "GET, HEAD" {
		t.Errorf("POST: %d, Allow %q", resp.StatusCode, resp.Header.Get("Allow"))
	}

	var reads atomic.Int32
	s.stream.ReadChunk = func(ctx context.Context, f photo.Filter, c featurestream.Chunk, fn func(*photo.Feature) error) error {
		reads.Add(1)
		return s.stream.Read(ctx, f, c, fn)
	}
	req, _ = http.NewRequest("HEAD", ts.URL+"/api/photos.geojson?download=1", nil)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || reads.Load() != 0 || !strings.HasPrefix(resp.Header.Get("Content-Disposition"), "attachment") {
		t.Errorf("HEAD: %d, %d chunks read, %v", resp.StatusCode, reads.Load(), resp.Header)
	}

	plain, _ := get(t, ts, "/api/photos.geojson")
	zipped, _ := get(t, ts, "/api/photos.geojson", "Accept-Encoding", "gzip")
	if plain.Header.Get("ETag") == zipped.Header.Get("ETag") || zipped.Header.Get("Content-Encoding") != "gzip" {
		t.Errorf("plain and gzipped share ETag %s", plain.Header.Get("ETag"))
	}
	again, body := get(t, ts, "/api/photos.geojson", "Accept-Encoding", "gzip", "If-None-Match", zipped.Header.Get("ETag"))
	if again.StatusCode != http.StatusNotModified || len(body) != 0 {
		t.Errorf("If-None-Match with the gzip ETag: %d", again.StatusCode)
	}
	if again, _ := get(t, ts, "/api/photos.geojson", "If-None-Match", zipped.Header.Get("ETag")); again.StatusCode != 200 {
		t.Errorf("the gzip ETag matched a plain request: %d", again.StatusCode)
	}
}

// TestSearchLimitsAndBusy: a search over the limits is a 400 naming q; a
// search when the lane's queue is full is a 503 with Retry-After, and the
// cheap requests still answer.
func TestSearchLimitsAndBusy(t *testing.T) {
	s, ts, _ := newTestServer(t)
	long := strings.TrimSuffix(strings.Repeat("a* OR ", 30), " OR ")
	for _, q := range []string{long, "x*", "al* OR sy* OR fi* OR re* OR ho*", `"unbalanced`} {
		for _, path := range []string{"/api/photos.geojson", "/api/facets", "/api/timeline", "/"} {
			resp, body := get(t, ts, path+"?q="+urlQuery(q))
			if resp.StatusCode != 400 || (path != "/" && !strings.Contains(string(body), `"parameter":"q"`)) {
				t.Errorf("%s?q=%s: %d %s", path, q, resp.StatusCode, body)
			}
		}
	}
	s.lane = lane.New(1, 0)
	s.stream.Lane = s.lane
	leave, err := s.lane.Wait(context.Background()) // the one slot is taken
	if err != nil {
		t.Fatal(err)
	}
	defer leave()
	for _, path := range []string{"/api/photos.geojson?q=Aleppo", "/api/facets?q=Aleppo", "/?q=Aleppo"} {
		resp, _ := get(t, ts, path)
		if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
			t.Errorf("%s with the lane full: %d, Retry-After %q", path, resp.StatusCode, resp.Header.Get("Retry-After"))
		}
	}
	for _, path := range []string{"/healthz", "/api/photos.geojson?from=2016-01&to=2016-12&bbox=35,32,43,38", "/about"} {
		if resp, body := get(t, ts, path); resp.StatusCode != 200 {
			t.Errorf("%s with the lane full: %d %s", path, resp.StatusCode, body)
		}
	}
}

func urlQuery(q string) string {
	return strings.NewReplacer(" ", "+", `"`, "%22", "*", "%2A").Replace(q)
}

// importText imports a file of the given name and content.
func importText(t *testing.T, a *archive.Archive, name, content string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := a.ImportFile(context.Background(), path, "", nil); err != nil {
		t.Fatal(err)
	}
}

// TestHealthzReportsDamage: once the integrity check finds a damaged
// archive, /healthz says so (503), however well its cheap read goes.
func TestHealthzReportsDamage(t *testing.T) {
	g, err := bundled()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "a.db")
	db, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	a := archive.New(db, g)
	var b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&b, "Photo %d: a man walks in Aleppo, Syria, May 2, 2016. REUTERS/Abdalrhman Ismail\n\n", i)
	}
	importText(t, a, "many.txt", b.String())
	db.Close()
	f, _ := os.OpenFile(path, os.O_RDWR, 0)
	st, _ := f.Stat()
	f.WriteAt(bytes.Repeat([]byte{0xff}, 8192), st.Size()/2)
	f.Close()
	db, err = store.OpenReadOnly(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s, err := New(archive.New(db, g), Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	s.CheckIntegrity(context.Background())
	resp, body := get(t, ts, "/healthz")
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), "damaged") || strings.Contains(string(body), path) {
		t.Errorf("healthz over a damaged archive: %d %s", resp.StatusCode, body)
	}
}

// An OGC items page that comes out shorter than its count says (rows of a
// damaged page skipped without an error) is cut off, not finished as a
// whole page with features silently missing.
func TestShortItemsPageIsCutOff(t *testing.T) {
	s, ts, _ := newTestServer(t)
	s.stream.ReadChunk = func(ctx context.Context, f photo.Filter, c featurestream.Chunk, fn func(*photo.Feature) error) error {
		n := 0
		return s.stream.Read(ctx, f, c, func(ft *photo.Feature) error {
			if n++; n == 2 {
				return nil // a row lost to damage
			}
			return fn(ft)
		})
	}
	for _, path := range []string{"/ogc/collections/photos/items?limit=5&offset=2"} {
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			continue // cut before the headers went
		}
		_, err = io.ReadAll(resp.Body)
		resp.Body.Close()
		if err == nil {
			t.Errorf("%s: a short page arrived whole", path)
		}
	}
	// A whole page is served as ever.
	s.stream.ReadChunk = s.stream.Read
	if resp, body := get(t, ts, "/ogc/collections/photos/items?limit=5&offset=2"); resp.StatusCode != 200 || countFeatures(body) != 5 {
		t.Errorf("a whole page: %d, %d features", resp.StatusCode, countFeatures(body))
	}
}

// Small things a careless client runs into: 405 names the route's real
// methods; a server without editors refuses writes with 403 (signing in
// would not help); a parameter given twice is a 400; the write API takes
// JSON only, one object; Range asks for at most a few ranges.
func TestSmallHardening(t *testing.T) {
	_, ts, _ := newTestServer(t)
	for _, tc := range []struct{ method, path, allow string }{
		{"POST", "/api/photos.geojson", "GET, HEAD"},
		{"GET", "/api/photos/abc/placement", "PUT"},
		{"DELETE", "/signin", "GET, HEAD, POST"},
	} {
		resp, body := do(t, nil, tc.method, ts.URL+tc.path, "")
		if resp.StatusCode != 405 || resp.Header.Get("Allow") != tc.allow || strings.Contains(body, "read-only") {
			t.Errorf("%s %s: %d Allow %q %s; want 405 Allow %q", tc.method, tc.path, resp.StatusCode, resp.Header.Get("Allow"), body, tc.allow)
		}
	}
	if resp, body := do(t, nil, "PUT", ts.URL+"/api/photos/abc/placement", `{"confirm": true}`); resp.StatusCode != 403 || !strings.Contains(body, "no editors") {
		t.Errorf("a write to an archive without editors: %d %s", resp.StatusCode, body)
	}
	if resp, body := get(t, ts, "/api/photos.geojson?limit=1&limit=2"); resp.StatusCode != 400 || !strings.Contains(string(body), `"parameter":"limit"`) {
		t.Errorf("limit twice: %d %s", resp.StatusCode, body)
	}
	if resp, _ := get(t, ts, "/api/photos.geojson?agency=Reuters&agency=AFP"); resp.StatusCode != 200 {
		t.Errorf("a facet given twice (two choices): %d", resp.StatusCode)
	}
	ranges := "bytes=0-0" + strings.Repeat(",2-2", 200)
	resp, body := get(t, ts, "/basemap.geojson", "Range", ranges)
	if resp.StatusCode != 200 || len(body) != len(geodata.Basemap) {
		t.Errorf("201 ranges: %d, %d bytes", resp.StatusCode, len(body))
	}
	if resp, _ := get(t, ts, "/basemap.geojson", "Range", "bytes=0-9"); resp.StatusCode != http.StatusPartialContent {
		t.Errorf("one range: %d", resp.StatusCode)
	}
}

// The write API takes a JSON body with the JSON content type, and nothing
// after its object.
func TestWriteBodies(t *testing.T) {
	e := newEditorServer(t, Options{})
	zamalka := e.photoID(t, "?place=ocha:C2320")
	u := e.ts.URL + "/api/photos/" + zamalka + "/placement"
	bearer := "Bearer " + e.token
	if resp, body := do(t, nil, "PUT", u, `{"confirm": true}`, "Authorization", bearer, "Content-Type", "text/plain"); resp.StatusCode != 415 {
		t.Errorf("text/plain: %d %s", resp.StatusCode, body)
	}
	if resp, body := do(t, nil, "PUT", u, `{"confirm": true} and more`, "Authorization", bearer); resp.StatusCode != 400 || !strings.Contains(body, "more after") {
		t.Errorf("text after the object: %d %s", resp.StatusCode, body)
	}
	e.unchanged(t, zamalka, "refused bodies")
}

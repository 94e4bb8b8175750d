package httpapi

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/syriamap/syriamap/internal/http/publish"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/geoparse/gen"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
	"github.com/syriamap/syriamap/internal/store"
)

// needTool finds a GDAL program; a missing one skips the test, except in
// CI, where .ci/run installs gdal-bin and a missing tool is a failure.
func needTool(t *testing.T, name string) string {
	t.Helper()
	return httpapitest.NeedTool(t, name)
}

func run(t *testing.T, name string, args ...string) string {
	t.Helper()
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestGDALOpensDownloads downloads the GeoJSON and the CSV and opens them
// with GDAL, the GIS client most tools build on: the right number of
// features, Point geometry, the date typed Date and the confidence Real;
// and ogr2ogr turns each into a GeoPackage.
func TestGDALOpensDownloads(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	ogrinfo, ogr2ogr := needTool(t, "ogrinfo"), needTool(t, "ogr2ogr")
	_, ts, _ := newTestServer(t)
	dir := t.TempDir()
	for _, c := range []struct {
		path, file string
		open       []string
		want       int
	}{
		{"/api/photos.geojson?download=1", "photos.geojson", nil, 18},
		{"/api/photos.geojson?from=2016&to=2016", "photos-2016.geojson", nil, 11},
		{"/api/photos.csv", "photos.csv", []string{"-oo", "X_POSSIBLE_NAMES=lon", "-oo", "Y_POSSIBLE_NAMES=lat", "-oo", "AUTODETECT_TYPE=YES"}, 18},
	} {
		resp, body := get(t, ts, c.path)
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d", c.path, resp.StatusCode)
		}
		file := filepath.Join(dir, c.file)
		os.WriteFile(file, body, 0o644)
		info := run(t, ogrinfo, append(append([]string{"-ro", "-al", "-so"}, c.open...), file)...)
		for _, want := range []*regexp.Regexp{
			regexp.MustCompile(`Feature Count: ` + strconv.Itoa(c.want) + `\n`),
			regexp.MustCompile(`Geometry: Point`),
			regexp.MustCompile(`\ndate: Date`),
			regexp.MustCompile(`\nconfidence: Real`),
		} {
			if !want.MatchString(info) {
				t.Errorf("%s: ogrinfo does not say %s:\n%s", c.file, want, info)
			}
		}
		gpkg := filepath.Join(dir, c.file+".gpkg")
		run(t, ogr2ogr, append(append([]string{"-f", "GPKG"}, c.open...), gpkg, file)...)
		if got := run(t, ogrinfo, "-ro", "-al", "-so", gpkg); !strings.Contains(got, "Feature Count: "+strconv.Itoa(c.want)) {
			t.Errorf("%s: the GeoPackage has another count:\n%s", c.file, got)
		}
	}
}

// generatedArchive is an archive of n generated captions (seed fixed),
// the test's own. An archive of the same n and seed is imported once in
// the test binary and copied for the tests after the first (the stall
// tests each want 80,000 photos: an import is seconds, a copy a fraction).
func generatedArchive(t testing.TB, n int, seed uint64) *archive.Archive {
	t.Helper()
	v, _ := generated.LoadOrStore([2]uint64{uint64(n), seed}, &generatedTemplate{})
	tpl := v.(*generatedTemplate)
	tpl.once.Do(func() { tpl.path, tpl.err = importGenerated(n, seed) })
	if tpl.err != nil {
		t.Fatal(tpl.err)
	}
	g, err := bundled()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "a.db")
	if err := copyFile(tpl.path, path); err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return archive.New(db, g)
}

// generated holds the generated archives' templates by size and seed, in
// templates, a folder TestMain removes.
var (
	generated sync.Map
	templates = func() string {
		dir, err := os.MkdirTemp("", "syriamap-httpapi-test-")
		if err != nil {
			panic(err)
		}
		return dir
	}()
)

type generatedTemplate struct {
	once sync.Once
	path string
	err  error
}

// importGenerated imports n generated captions into an archive of its
// own under templates, closed, and returns its path.
func importGenerated(n int, seed uint64) (string, error) {
	ctx := context.Background()
	g, err := bundled()
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp(templates, "generated-")
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "a.db")
	db, err := store.Open(ctx, path)
	if err != nil {
		return "", err
	}
	defer db.Close()
	a := archive.New(db, g)
	var captions strings.Builder
	gn := gen.New(a.Gazetteer(), seed)
	for range n {
		captions.WriteString(gn.Caption() + "\n\n")
	}
	text := filepath.Join(dir, "captions.txt")
	if err := os.WriteFile(text, []byte(captions.String()), 0o644); err != nil {
		return "", err
	}
	if _, err := a.ImportFile(ctx, text, "", nil); err != nil {
		return "", err
	}
	copyPath := filepath.Join(dir, "copy.db") // one file, the WAL folded in
	return copyPath, db.Backup(ctx, copyPath)
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o644)
}

// generatedServer serves an archive of n generated captions.
func generatedServer(t *testing.T, n int) *httptest.Server {
	t.Helper()
	a := generatedArchive(t, n, 7)
	ts := httptest.NewServer(nil)
	t.Cleanup(ts.Close)
	s, err := New(a, Options{BaseURL: ts.URL})
	if err != nil {
		t.Fatal(err)
	}
	ts.Config.Handler = s.Handler()
	return ts
}

// geojsonIDs reads the ids of a GeoJSON file's features, sorted, and
// fails on an id given twice.
func geojsonIDs(t *testing.T, body []byte) []string {
	t.Helper()
	var fc struct {
		Features []struct {
			ID         any `json:"id"`
			Properties struct {
				ID string `json:"id"`
			} `json:"properties"`
		} `json:"features"`
	}
	if err := json.Unmarshal(body, &fc); err != nil {
		t.Fatal(err)
	}
	ids := make([]string, 0, len(fc.Features))
	for _, f := range fc.Features {
		id, _ := f.ID.(string)
		if f.Properties.ID != "" {
			id = f.Properties.ID // as ogr2ogr writes it: a field
		}
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for i := 1; i < len(ids); i++ {
		if ids[i] == ids[i-1] {
			t.Fatalf("feature %s given twice", ids[i])
		}
	}
	return ids
}

// TestGDALReadsOGC connects GDAL's OGC API – Features driver to the
// server as QGIS would, over a 25,000-photo archive: the layer's count
// and field types; an export with a box and a date range that GDAL
// turns into bbox and datetime equals /api/photos.geojson for the same
// box and window; a whole export pages through every photo once; and
// GDAL's MVT driver opens a vector tile.
func TestGDALReadsOGC(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	ogrinfo, ogr2ogr := needTool(t, "ogrinfo"), needTool(t, "ogr2ogr")
	if testing.Short() {
		t.Skip("imports 25,000 photos")
	}
	ts := generatedServer(t, 25_000)
	_, body := get(t, ts, "/api/photos.geojson")
	all := geojsonIDs(t, body)
	src := "OAPIF:" + ts.URL + "/ogc"

	info := run(t, ogrinfo, "-ro", "-so", src, "photos")
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`Feature Count: ` + strconv.Itoa(len(all)) + `\n`),
		regexp.MustCompile(`Geometry: Point`),
		regexp.MustCompile(`\ndate: Date`),
		regexp.MustCompile(`\nconfidence: Real`),
		regexp.MustCompile(`\nagency: String`),
		regexp.MustCompile(`TEMPORAL_INTERVAL_MIN=201\d-`),
	} {
		if !want.MatchString(info) {
			t.Errorf("ogrinfo does not say %s:\n%s", want, info)
		}
	}

	dir := t.TempDir()
	export := func(name string, args ...string) []string {
		out := filepath.Join(dir, name+".geojson")
		run(t, ogr2ogr, append([]string{"-f", "GeoJSON", "-oo", "PAGE_SIZE=1000", out, src, "photos"}, args...)...)
		body, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return geojsonIDs(t, body)
	}
	// GDAL sends the box as bbox, the date range as datetime and the
	// agency as agency=, and checks none of them again itself: the
	// server's answer is the export.
	got := export("window", "-spat", "36", "35", "38", "37", "-where", "date >= '2016-01-01' AND date <= '2016-06-30' AND agency = 'AFP'")
	_, body = get(t, ts, "/api/photos.geojson?bbox=36,35,38,37&from=2016-01-01&to=2016-06-30&agency=AFP")
	if want := geojsonIDs(t, body); len(want) < 20 || !slices.Equal(got, want) {
		t.Errorf("ogr2ogr -spat -where exported %d photos; /api/photos.geojson gives %d", len(got), len(want))
	}
	// The GeoPackage a QGIS user would save holds the same count.
	gpkg := filepath.Join(dir, "window.gpkg")
	run(t, ogr2ogr, "-f", "GPKG", "-oo", "PAGE_SIZE=1000", gpkg, src, "photos", "-spat", "36", "35", "38", "37",
		"-where", "date >= '2016-01-01' AND date <= '2016-06-30' AND agency = 'AFP'")
	if info := run(t, ogrinfo, "-ro", "-so", gpkg, "photos"); !strings.Contains(info, "Feature Count: "+strconv.Itoa(len(got))+"\n") {
		t.Errorf("the GeoPackage:\n%s", info)
	}
	// Every photo once, placed or not, page after page.
	if got := export("all"); !slices.Equal(got, all) {
		t.Errorf("the whole export holds %d photos, the archive %d", len(got), len(all))
	}

	// A vector tile over Aleppo, saved as z/x/y.mvt so that GDAL knows
	// where it lies.
	const z, x, y = 8, 154, 101
	resp, tile := get(t, ts, "/tiles/photos/8/154/101.mvt")
	if resp.StatusCode != 200 || len(tile) == 0 {
		t.Fatalf("tile: %d, %d bytes", resp.StatusCode, len(tile))
	}
	path := filepath.Join(dir, strconv.Itoa(z), strconv.Itoa(x), strconv.Itoa(y)+".mvt")
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, tile, 0o644)
	info = run(t, ogrinfo, "-ro", "-al", "-so", path)
	m := regexp.MustCompile(`Extent: \(([\d.]+), ([\d.]+)\) - \(([\d.]+), ([\d.]+)\)`).FindStringSubmatch(info)
	if !strings.Contains(info, "Layer name: photos") || !strings.Contains(info, "count: Integer") || m == nil {
		t.Fatalf("ogrinfo on a tile:\n%s", info)
	}
	// Web Mercator metres around Aleppo (37.1° E, 36.2° N).
	if minX, _ := strconv.ParseFloat(m[1], 64); minX < 4.0e6 || minX > 4.3e6 {
		t.Errorf("the tile's features are not at Aleppo:\n%s", info)
	}
}

// TestGDALReadsEvents (issue 56, 4): GDAL opens the OGC API's events
// collection as QGIS would — every UCDP GED event, typed fields, the
// kind queryable sent to the server — and the events download as it is.
func TestGDALReadsEvents(t *testing.T) {
	t.Parallel()
	ogrinfo, ogr2ogr := needTool(t, "ogrinfo"), needTool(t, "ogr2ogr")
	_, ts, a := newTestServer(t)
	if _, _, err := a.ImportBundledEvents(context.Background()); err != nil {
		t.Fatal(err)
	}
	src := "OAPIF:" + ts.URL + "/ogc"
	info := run(t, ogrinfo, "-ro", "-so", src, "events")
	for _, want := range []string{"Feature Count: 16566\n", "Geometry: Point", "\ndeaths: Integer", "\nwhere_prec: Integer", "\ndate_start: Date"} {
		if !strings.Contains(info, want) {
			t.Errorf("ogrinfo on the events collection does not say %q:\n%s", want, info)
		}
	}
	out := filepath.Join(t.TempDir(), "one-sided.geojson")
	run(t, ogr2ogr, "-f", "GeoJSON", "-oo", "PAGE_SIZE=5000", out, src, "events", "-where", "kind = 'one-sided'")
	body, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	_, want := get(t, ts, "/api/events.geojson?kind=one-sided")
	if got, want := geojsonIDs(t, body), geojsonIDs(t, want); len(want) < 100 || !slices.Equal(got, want) {
		t.Errorf("ogr2ogr -where kind exported %d events; /api/events.geojson?kind=one-sided gives %d", len(got), len(want))
	}
	path := filepath.Join(t.TempDir(), "events.geojson")
	_, all := get(t, ts, "/api/events.geojson?download=1")
	os.WriteFile(path, all, 0o644)
	if info := run(t, ogrinfo, "-ro", "-so", "-al", path); !strings.Contains(info, "Feature Count: 16566\n") {
		t.Errorf("ogrinfo on the events download:\n%s", info)
	}
}

// TestGDALOpensPublished opens a published site's downloads with GDAL:
// the whole selection's GeoJSON, a year's and the CSV (gzipped, through
// /vsigzip/) hold the live API's count for the same selection.
func TestGDALOpensPublished(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	ogrinfo := needTool(t, "ogrinfo")
	_, live, a := newTestServer(t)
	dir := t.TempDir()
	if _, err := publish.Publish(context.Background(), a, dir, publish.Options{IncludeUnplaced: true}); err != nil {
		t.Fatal(err)
	}
	count := regexp.MustCompile(`Feature Count: (\d+)`)
	for _, c := range []struct {
		file  string
		open  []string
		query string
	}{
		{"/vsigzip/" + filepath.Join(dir, "download", "photos.geojson.gz"), nil, ""},
		{"/vsigzip/" + filepath.Join(dir, "download", "photos-2016.geojson.gz"), nil, "?from=2016&to=2016"},
		{"/vsigzip/" + filepath.Join(dir, "download", "photos.csv.gz"), []string{"-oo", "X_POSSIBLE_NAMES=lon", "-oo", "Y_POSSIBLE_NAMES=lat"}, ""},
	} {
		out := run(t, ogrinfo, append(append([]string{"-so", "-al"}, c.open...), c.file)...)
		m := count.FindStringSubmatch(out)
		_, selected := get(t, live, "/api/photos.geojson"+c.query)
		if want := len(features(t, selected).Features); m == nil || m[1] != strconv.Itoa(want) {
			t.Errorf("ogrinfo %s: %v; the live API selects %d\n%s", c.file, m, want, out)
		}
	}
}

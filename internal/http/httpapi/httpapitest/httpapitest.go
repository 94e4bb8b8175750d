// Package httpapitest is the HTTP tests' one harness: the archives they
// serve (the samples with images, the imagemeta fixtures, generated
// captions), the editors who sign in to them, and the requests they
// send. It does not import httpapi, so that httpapi's own tests can use
// it as much as the packages beside it (the browser tests): each builds
// its server over these archives with httpapi.New.
package httpapitest

import (
	"compress/gzip"
	"context"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/paulmach/orb/geojson"

	"github.com/syriamap/syriamap/geodata"
	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/auth"
	"github.com/syriamap/syriamap/internal/evidence/originals"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/geoparse/gen"
	"github.com/syriamap/syriamap/internal/pgtest"
)

// Password is every test editor's password.
const Password = "olive grove at dawn"

// Editor is the name of the test servers' editor, whose token
// AddEditor returns.
const Editor = "rana"

var bundled = sync.OnceValues(func() (*gazetteer.Gazetteer, error) { return gazetteer.Load(geodata.Gazetteer) })

// Gazetteer is the bundled gazetteer, loaded once for the test binary.
func Gazetteer(t testing.TB) *gazetteer.Gazetteer {
	t.Helper()
	g, err := bundled()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// EmptyArchive is a new archive over the bundled gazetteer in a
// temporary folder, which it returns too; the test's cleanup closes it.
func EmptyArchive(t testing.TB) (*archive.Archive, string) {
	t.Helper()
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	if pgtest.Engine() == "postgres" {
		db = pgtest.Database(t)
	}
	return EmptyArchiveAt(t, db), dir
}

// EmptyArchiveAt is a new archive at db: a SQLite file's path or a
// PostgreSQL database's URL (pgtest.Database).
func EmptyArchiveAt(t testing.TB, db string) *archive.Archive {
	t.Helper()
	a, err := archive.Open(context.Background(), db, Gazetteer(t), false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

// SampleArchive is an archive of the sample captions plus two photos
// with images (one by URL, one a PNG in the media folder it returns,
// 2016/kafranbel.png), a photo whose caption names no place, and beside
// the media files that are not images (evil.html, evil.js, evil.jpg,
// evil.svg) and, above it, secret.txt.
func SampleArchive(t testing.TB) (*archive.Archive, string) {
	t.Helper()
	a, dir := EmptyArchive(t)
	ctx := context.Background()
	if _, err := a.ImportSamples(ctx); err != nil {
		t.Fatal(err)
	}
	media := filepath.Join(dir, "media")
	img := image.NewRGBA(image.Rect(0, 0, 800, 400))
	for x := range 800 {
		img.Set(x, 200, color.RGBA{200, 0, 0, 255})
	}
	writeFile(t, filepath.Join(media, "2016", "kafranbel.png"), pngOf(t, img))
	writeFile(t, filepath.Join(dir, "secret.txt"), "not for you")
	// Files that are not images, which /media must not serve as the site.
	script := "<html><script>fetch('/api/photos.csv').then(r => r.text()).then(alert)</script></html>"
	for name, body := range map[string]string{"evil.html": script, "evil.js": "fetch('/api/photos.csv')", "evil.jpg": script,
		"evil.svg": `<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`} {
		writeFile(t, filepath.Join(media, name), body)
	}
	csvPath := filepath.Join(dir, "images.csv")
	writeFile(t, csvPath, "caption,image_url,image_path\n"+
		"\"Children play in Kafranbel, Idlib province, Syria, March 3, 2016. REUTERS/Khalil Ashawi\",,2016/kafranbel.png\n"+
		"\"A man walks in Aleppo, Syria, March 4, 2016. REUTERS/Hosam Katan\",https://example.org/a.jpg,\n")
	if _, err := a.ImportFile(ctx, csvPath, "", nil); err != nil {
		t.Fatal(err)
	}
	// A photo whose caption names no place.
	unplaced := filepath.Join(dir, "unplaced.txt")
	writeFile(t, unplaced, "A rebel shows a homemade armored vehicle to the press.\n")
	if _, err := a.ImportFile(ctx, unplaced, "", nil); err != nil {
		t.Fatal(err)
	}
	return a, media
}

func pngOf(t testing.TB, img image.Image) string {
	t.Helper()
	var b strings.Builder
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func writeFile(t testing.TB, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// ImageArchive imports a copy of the imagemeta fixtures (made by
// exiftool) as images and returns the archive and the copy's folder.
func ImageArchive(t testing.TB) (*archive.Archive, string) {
	t.Helper()
	a, dir := EmptyArchive(t)
	// The fixtures are a few pictures under many captions, made to test
	// metadata: hashed on arrival they would flag each other as re-used.
	a.FramesLater = true
	_, here, _, _ := runtime.Caller(0)
	names, _ := filepath.Glob(filepath.Join(filepath.Dir(here), "..", "..", "..", "evidence", "imagemeta", "testdata", "*.jpg"))
	if len(names) == 0 {
		t.Fatal("no imagemeta fixtures")
	}
	photos := filepath.Join(dir, "photos")
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(photos, filepath.Base(n)), string(b))
	}
	if _, err := a.ImportImages(context.Background(), []string{photos}, nil, nil); err != nil {
		t.Fatal(err)
	}
	return a, photos
}

// GeneratedArchive is an archive of n captions generated from seed,
// then the captions more, imported as one text file.
func GeneratedArchive(t testing.TB, seed uint64, n int, more ...string) *archive.Archive {
	t.Helper()
	a, dir := EmptyArchive(t)
	generate(t, a, dir, seed, n, more...)
	return a
}

// GeneratedArchiveAt is GeneratedArchive at db (as EmptyArchiveAt).
func GeneratedArchiveAt(t testing.TB, db string, seed uint64, n int, more ...string) *archive.Archive {
	t.Helper()
	a := EmptyArchiveAt(t, db)
	generate(t, a, t.TempDir(), seed, n, more...)
	return a
}

// generate imports n captions generated from seed, and more, into a.
func generate(t testing.TB, a *archive.Archive, dir string, seed uint64, n int, more ...string) {
	t.Helper()
	var captions strings.Builder
	gn := gen.New(a.Gazetteer(), seed)
	for range n {
		captions.WriteString(gn.Caption() + "\n\n")
	}
	for _, c := range more {
		captions.WriteString(c + "\n\n")
	}
	text := filepath.Join(dir, "gen.txt")
	writeFile(t, text, captions.String())
	if _, err := a.ImportFile(context.Background(), text, "", nil); err != nil {
		t.Fatal(err)
	}
}

// KeepOriginals gives a a store of originals, as serve does: a server
// takes pictures only when it can keep them.
func KeepOriginals(t testing.TB, a *archive.Archive) {
	t.Helper()
	store, err := originals.NewDir(filepath.Join(t.TempDir(), "originals"))
	if err != nil {
		t.Fatal(err)
	}
	a.Originals = store
}

// AddEditor adds the editor name, with Password, to a and returns a
// bearer token of theirs.
func AddEditor(t testing.TB, a *archive.Archive, name string) string {
	t.Helper()
	hash, err := auth.HashPassword(Password)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := a.AddEditor(ctx, name, hash); err != nil {
		t.Fatal(err)
	}
	token := auth.NewSecret()
	if err := a.AddToken(ctx, name, "tests", auth.HashSecret(token)); err != nil {
		t.Fatal(err)
	}
	return token
}

// Get asks ts for path with the header's pairs and returns the answer
// and its body, gunzipped when it came gzipped.
func Get(t testing.TB, ts *httptest.Server, path string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", ts.URL+path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	tr := &http.Transport{DisableCompression: true}
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r io.Reader = resp.Body
	if resp.Header.Get("Content-Encoding") == "gzip" {
		gz, err := gzip.NewReader(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		r = gz
	}
	body, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

// Do sends a request with c (a new client when nil) without following
// redirects; header is pairs. A PUT goes as JSON, as a script sends it.
func Do(t testing.TB, c *http.Client, method, u, body string, header ...string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(method, u, strings.NewReader(body))
	if method == "PUT" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	if c == nil {
		c = &http.Client{}
	}
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// Features reads body as a GeoJSON feature collection.
func Features(t testing.TB, body []byte) *geojson.FeatureCollection {
	t.Helper()
	fc, err := geojson.UnmarshalFeatureCollection(body)
	if err != nil {
		t.Fatalf("not GeoJSON: %v\n%s", err, body)
	}
	return fc
}

// PhotoID is the id of the first photo /api/photos.geojson answers for
// query ("?place=…").
func PhotoID(t testing.TB, ts *httptest.Server, query string) string {
	t.Helper()
	_, body := Get(t, ts, "/api/photos.geojson"+query)
	fc := Features(t, body)
	if len(fc.Features) == 0 {
		t.Fatalf("no photo for %q", query)
	}
	return fc.Features[0].ID.(string)
}

// SignIn signs Editor in at base and returns a client holding the
// session, and the CSRF token the session's pages carry.
func SignIn(t testing.TB, base string) (*http.Client, string) {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	resp, _ := Do(t, c, "POST", base+"/signin", url.Values{"name": {Editor}, "password": {Password}}.Encode(),
		"Content-Type", "application/x-www-form-urlencoded")
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/review" {
		t.Fatalf("sign in: %s to %q", resp.Status, resp.Header.Get("Location"))
	}
	for _, ck := range resp.Cookies() { // the session's and the browser's (see auth.Brake)
		if !ck.HttpOnly || ck.SameSite != http.SameSiteStrictMode || ck.Expires.IsZero() {
			t.Errorf("cookie %+v", ck)
		}
	}
	_, page := Do(t, c, "GET", base+"/about", "")
	i := strings.Index(page, `name="csrf" value="`)
	if i < 0 || !strings.Contains(page, "Signed in as") {
		t.Fatal("no CSRF token, or no editor, on the page after sign-in")
	}
	csrf := page[i+len(`name="csrf" value="`):]
	return c, csrf[:strings.IndexByte(csrf, '"')]
}

// NeedTool finds a program (a GDAL one, say); a missing one skips the
// test, except in CI, where a missing tool is a failure.
func NeedTool(t testing.TB, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not installed; CI must install it", name)
		}
		t.Skipf("%s is not installed", name)
	}
	return path
}

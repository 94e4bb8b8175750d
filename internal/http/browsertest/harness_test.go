package browsertest

import (
	"context"
	"github.com/syriamap/syriamap/internal/store"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/paulmach/orb/geojson"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/http/httpapi"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
)

// The browser tests' servers: the HTTP tests' one harness
// (httpapitest), served with httpapi.New at the test server's address.

const testPassword = httpapitest.Password

// serveArchive serves a with opts, at the test server's own address.
func serveArchive(t testing.TB, a *archive.Archive, opts httpapi.Options) (*httptest.Server, *httpapi.Server) {
	t.Helper()
	ts := httptest.NewServer(nil)
	t.Cleanup(ts.Close)
	opts.BaseURL = ts.URL
	s, err := httpapi.New(a, opts)
	if err != nil {
		t.Fatal(err)
	}
	ts.Config.Handler = s.Handler()
	return ts, s
}

// newTestServer serves the harness's sample archive with its media.
func newTestServer(t testing.TB) (*httpapi.Server, *httptest.Server, *archive.Archive) {
	t.Helper()
	a, media := httpapitest.SampleArchive(t)
	ts, s := serveArchive(t, a, httpapi.Options{Media: media})
	return s, ts, a
}

// imageServer serves the harness's archive of the imagemeta fixtures.
func imageServer(t *testing.T, opts httpapi.Options) (*httptest.Server, string) {
	t.Helper()
	a, photos := httpapitest.ImageArchive(t)
	ts, _ := serveArchive(t, a, opts)
	return ts, photos
}

// editorServer is the sample archive served with opts, with an editor
// (httpapitest.Editor) who has a bearer token.
type editorServer struct {
	ts    *httptest.Server
	a     *archive.Archive
	token string
}

func newEditorServer(t *testing.T, opts httpapi.Options) *editorServer {
	t.Helper()
	a, _ := httpapitest.SampleArchive(t)
	token := httpapitest.AddEditor(t, a, httpapitest.Editor)
	ts, _ := serveArchive(t, a, opts)
	return &editorServer{ts: ts, a: a, token: token}
}

// rawStore opens the archive's file past the archive, for a test that
// writes what the archive's own use cases would not (a reuse flagged by
// hand, a geocoder of its own); it is closed when the test ends.
func rawStore(t *testing.T, a *archive.Archive) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), a.Path())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func (e *editorServer) signIn(t *testing.T) (*http.Client, string) {
	t.Helper()
	return httpapitest.SignIn(t, e.ts.URL)
}

func (e *editorServer) photoID(t *testing.T, query string) string {
	t.Helper()
	return httpapitest.PhotoID(t, e.ts, query)
}

func (e *editorServer) unchanged(t *testing.T, id, why string) {
	t.Helper()
	httpapitest.Unchanged(t, e.a, id, why)
}

func (e *editorServer) unchangedPlace(t *testing.T, id string) {
	t.Helper()
	httpapitest.UnchangedPlace(t, e.a, id)
}

func (e *editorServer) splitKafranbel(t *testing.T) string {
	t.Helper()
	return httpapitest.SplitKafranbel(t, e.a, rawStore(t, e.a))
}

func get(t testing.TB, ts *httptest.Server, path string, header ...string) (*http.Response, []byte) {
	t.Helper()
	return httpapitest.Get(t, ts, path, header...)
}

func do(t *testing.T, c *http.Client, method, u, body string, header ...string) (*http.Response, string) {
	t.Helper()
	return httpapitest.Do(t, c, method, u, body, header...)
}

func features(t *testing.T, body []byte) *geojson.FeatureCollection {
	t.Helper()
	return httpapitest.Features(t, body)
}

// featureWith returns the properties of the one feature whose caption
// begins with prefix.
func featureWith(t *testing.T, ts *httptest.Server, prefix string) map[string]any {
	t.Helper()
	_, body := get(t, ts, "/api/photos.geojson")
	for _, f := range features(t, body).Features {
		if c, _ := f.Properties["caption"].(string); strings.HasPrefix(c, prefix) {
			return f.Properties
		}
	}
	t.Fatalf("no feature with a caption beginning %q", prefix)
	return nil
}

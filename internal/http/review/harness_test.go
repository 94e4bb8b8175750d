package review_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/paulmach/orb/geojson"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/http/httpapi"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
	"github.com/syriamap/syriamap/internal/http/httpapi/servertest"
	"github.com/syriamap/syriamap/internal/store"
)

// editorServer is the whole server (httpapi.New, as the binary wires it)
// over the harness's sample archive, with an editor, rana, who has a
// bearer token: the review's forms and writes are answered by its routes,
// and their effects read through the others (the lists, the photo page).
type editorServer struct {
	ts    *httptest.Server
	a     *archive.Archive
	token string
}

func newEditorServer(t *testing.T, opts httpapi.Options) *editorServer {
	t.Helper()
	s := servertest.Sample(t, opts)
	return &editorServer{ts: s.TS, a: s.A, token: s.Token}
}

func (e *editorServer) photoID(t *testing.T, query string) string {
	t.Helper()
	return httpapitest.PhotoID(t, e.ts, query)
}

// signIn signs rana in and returns a client holding the session and the
// session's CSRF token, read from a page.
func (e *editorServer) signIn(t *testing.T) (*http.Client, string) {
	t.Helper()
	return httpapitest.SignIn(t, e.ts.URL)
}

// unchanged fails the test if the photo has any event or moved.
func (e *editorServer) unchanged(t *testing.T, id, why string) {
	t.Helper()
	httpapitest.Unchanged(t, e.a, id, why)
}

// splitKafranbel makes the Kafranbel group two parts (httpapitest).
func (e *editorServer) splitKafranbel(t *testing.T) string {
	t.Helper()
	db, err := store.Open(context.Background(), e.a.Path())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return httpapitest.SplitKafranbel(t, e.a, db)
}

// tokenOf adds editor name to a and returns a bearer token of theirs.
func tokenOf(t *testing.T, a *archive.Archive, name string) string {
	t.Helper()
	return httpapitest.AddEditor(t, a, name)
}

// do sends a request without following redirects; header is pairs.
func do(t *testing.T, c *http.Client, method, u, body string, header ...string) (*http.Response, string) {
	t.Helper()
	return httpapitest.Do(t, c, method, u, body, header...)
}

func get(t testing.TB, ts *httptest.Server, path string, header ...string) (*http.Response, []byte) {
	t.Helper()
	return httpapitest.Get(t, ts, path, header...)
}

func features(t *testing.T, body []byte) *geojson.FeatureCollection {
	t.Helper()
	return httpapitest.Features(t, body)
}

package storyapi_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/paulmach/orb/geojson"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/http/httpapi"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
	"github.com/syriamap/syriamap/internal/http/httpapi/servertest"
)

// editorServer is the whole server (servertest) with an editor: a story
// shows photos, and its pages and refusals are read through the server's
// other routes too.
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

func (e *editorServer) signIn(t *testing.T) (*http.Client, string) {
	t.Helper()
	return httpapitest.SignIn(t, e.ts.URL)
}

func do(t *testing.T, c *http.Client, method, u, body string, header ...string) (*http.Response, string) {
	t.Helper()
	return httpapitest.Do(t, c, method, u, body, header...)
}

func features(t *testing.T, body []byte) *geojson.FeatureCollection {
	t.Helper()
	return httpapitest.Features(t, body)
}

package secondlooks_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/http/httpapi"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
	"github.com/syriamap/syriamap/internal/http/httpapi/servertest"
)

// editorServer is the whole server (httpapi.New, as the binary wires it)
// over the harness's sample archive, with an editor, rana, who has a
// bearer token: the second looks are answered by its routes, and their
// effects read through the others (the lists, OGC, the photo page).
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

// bagRecord exports photo id's evidence bag and returns its record.json.
func bagRecord(t *testing.T, a *archive.Archive, id string) []byte {
	t.Helper()
	return httpapitest.BagRecord(t, a, id)
}

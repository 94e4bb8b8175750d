// Package servertest serves the HTTP tests' archives (httpapitest) with
// the whole server, httpapi.New, as the binary serves them, for the
// tests of the feature packages (eventsapi, importapi, …) whose promises
// hold across routes: a link that travels to the downloads, an upload
// that lands in the review. It is apart from httpapitest because
// httpapi's own tests use that one (it cannot import httpapi).
package servertest

import (
	"net/http/httptest"
	"testing"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/http/httpapi"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
)

// Server is an archive served whole, with an editor.
type Server struct {
	TS *httptest.Server
	S  *httpapi.Server
	A  *archive.Archive
	// Token is httpapitest.Editor's bearer token.
	Token string
}

// Serve serves a with opts at the test server's own address (its
// BaseURL), with httpapitest.Editor added; it stops when the test ends.
func Serve(t testing.TB, a *archive.Archive, opts httpapi.Options) *Server {
	t.Helper()
	token := httpapitest.AddEditor(t, a, httpapitest.Editor)
	ts := httptest.NewServer(nil)
	t.Cleanup(ts.Close)
	opts.BaseURL = ts.URL
	s, err := httpapi.New(a, opts)
	if err != nil {
		t.Fatal(err)
	}
	ts.Config.Handler = s.Handler()
	return &Server{TS: ts, S: s, A: a, Token: token}
}

// Sample serves httpapitest.SampleArchive, its media folder added to
// opts.
func Sample(t testing.TB, opts httpapi.Options) *Server {
	t.Helper()
	a, media := httpapitest.SampleArchive(t)
	opts.Media = media
	return Serve(t, a, opts)
}

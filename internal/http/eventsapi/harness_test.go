package eventsapi_test

import (
	"net/http/httptest"
	"testing"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/http/httpapi"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
)

// server is the HTTP tests' sample archive (httpapitest) served whole,
// with httpapi.New at the test server's address, as the binary serves
// it: the events' promises hold across routes (a link travels to the
// photos' downloads and pages), and the archive an editor's bearer
// token.
type server struct {
	ts    *httptest.Server
	a     *archive.Archive
	token string
}

func newServer(t *testing.T) *server {
	t.Helper()
	a, media := httpapitest.SampleArchive(t)
	token := httpapitest.AddEditor(t, a, httpapitest.Editor)
	ts := httptest.NewServer(nil)
	t.Cleanup(ts.Close)
	s, err := httpapi.New(a, httpapi.Options{Media: media, BaseURL: ts.URL})
	if err != nil {
		t.Fatal(err)
	}
	ts.Config.Handler = s.Handler()
	return &server{ts: ts, a: a, token: token}
}

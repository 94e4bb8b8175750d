package eventsapi_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/syriamap/syriamap/internal/http/httpapi"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
	"github.com/syriamap/syriamap/internal/http/httpapi/servertest"
)

// newServer is the HTTP tests' sample archive served whole (servertest):
// the events' promises hold across routes (a link travels to the
// photos' downloads and pages).
func newServer(t *testing.T) *servertest.Server { return servertest.Sample(t, httpapi.Options{}) }

// withEvents is the sample server with UCDP GED's bundled events and the
// photo of caption imported, and that photo's id (the one the search q
// finds).
func withEvents(t *testing.T, caption, q string) (*servertest.Server, string) {
	t.Helper()
	e := newServer(t)
	ctx := context.Background()
	if _, _, err := e.A.ImportBundledEvents(ctx); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "caption.txt")
	if err := os.WriteFile(path, []byte(caption+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := e.A.ImportFile(ctx, path, "", nil); err != nil {
		t.Fatal(err)
	}
	return e, httpapitest.PhotoID(t, e.TS, "?q="+q)
}

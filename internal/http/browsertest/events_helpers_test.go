package browsertest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/syriamap/syriamap/internal/http/httpapi"
)

// withEvents is an editor's server whose archive holds UCDP GED's
// bundled events and the photo of caption, whose id it returns (the
// photo the search q finds).
func withEvents(t *testing.T, caption, q string) (*editorServer, string) {
	t.Helper()
	e := newEditorServer(t, httpapi.Options{})
	ctx := context.Background()
	if _, _, err := e.a.ImportBundledEvents(ctx); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "caption.txt")
	if err := os.WriteFile(path, []byte(caption+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := e.a.ImportFile(ctx, path, "", nil); err != nil {
		t.Fatal(err)
	}
	return e, e.photoID(t, "?q="+q)
}

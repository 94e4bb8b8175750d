package httpapitest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/http/bag"
	"github.com/syriamap/syriamap/internal/photo"
)

// BagRecord exports photo id's evidence bag, as editor rana, and returns
// its record.json.
func BagRecord(t testing.TB, a *archive.Archive, id string) []byte {
	t.Helper()
	dir := t.TempDir()
	if _, err := bag.Export(context.Background(), a, photo.Filter{IDs: []string{id}}, dir, "rana"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "data", id, "record.json"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

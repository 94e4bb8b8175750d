package archive

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An archive written before the checks' notes stopped giving the GPS
// point's distance gets them rewritten when it is next opened for writing
// (migration 0011's task), and the task is done once.
func TestOpenRewritesOldGPSNotes(t *testing.T) {
	ctx := context.Background()
	g, err := bundled()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "a.db")
	a := newArchiveAt(t, path, g)
	dir := filepath.Join(t.TempDir(), "photos")
	os.MkdirAll(dir, 0o755)
	b, _ := os.ReadFile("../evidence/imagemeta/testdata/check-abroad.jpg")
	os.WriteFile(filepath.Join(dir, "check-abroad.jpg"), b, 0o644)
	if _, err := a.ImportImages(ctx, []string{dir}, nil, nil); err != nil {
		t.Fatal(err)
	}
	id := photoByCaption(t, a, "Men walk through rubble in Aleppo").ID
	a.Close()

	// What the old syriamap stored, and the task the upgrade left.
	raw, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	old := "The caption says Aleppo; its GPS is in Turkey, 98 km from Aleppo."
	if _, err := raw.Exec(`UPDATE photos SET agreement_note = ? WHERE id = ?`, old, id); err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`INSERT OR IGNORE INTO archive_tasks (name) VALUES ('recheck-files')`); err != nil {
		t.Fatal(err)
	}
	raw.Close()

	a, err = Open(ctx, path, g, false)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	p, err := a.db.Photo(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(p.Check.Note, "km from") || !strings.Contains(p.Check.Note, "its GPS point is in Turkey") {
		t.Errorf("the note after opening: %q", p.Check.Note)
	}
	if pending, err := a.db.TaskPending(ctx, "recheck-files"); err != nil || pending {
		t.Errorf("the task is still pending (%v)", err)
	}
}

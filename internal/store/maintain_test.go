package store

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/photo"
)

// TestChecksFindAMismatchedArchive: a photo taken out of the search index
// by hand is damage Integrity names on either engine (and QuickCheck on
// PostgreSQL, whose pages it cannot read); on PostgreSQL, rows written
// with the foreign keys switched off (as a restore may) are too. The
// untouched archive passes both checks.
func TestChecksFindAMismatchedArchive(t *testing.T) {
	ctx := context.Background()
	path := archivePath(t, "a.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	importFixture(t, db)
	if err := db.QuickCheck(ctx); err != nil {
		t.Fatalf("quick check of a sound archive: %v", err)
	}
	if err := db.Integrity(ctx); err != nil {
		t.Fatalf("integrity of a sound archive: %v", err)
	}
	db.Close()
	unindexed := tampered(t, path, `DELETE FROM photos_fts WHERE rowid = (SELECT min(rowid) FROM photos)`)
	checks := map[string]func(context.Context) error{"Integrity": unindexed.Integrity}
	if onPostgres {
		checks["QuickCheck"] = unindexed.QuickCheck
	}
	for name, check := range checks {
		if err := check(ctx); photo.ErrorCode(err) != photo.ECorrupt || !strings.Contains(err.Error(), "index") {
			t.Errorf("%s of an archive with a photo out of its search index: %v; want it damaged", name, err)
		}
	}
	if !onPostgres {
		return // SQLite's connections always enforce the foreign keys
	}
	orphans := tampered(t, path, `SET session_replication_role = replica`,
		`INSERT INTO sources (photo, file, line) VALUES (999999, 'x.txt', 1)`)
	if err := orphans.QuickCheck(ctx); err != nil {
		t.Errorf("quick check, which reads no foreign key: %v", err)
	}
	if err := orphans.Integrity(ctx); photo.ErrorCode(err) != photo.ECorrupt || !strings.Contains(err.Error(), "1 rows of sources name a row of photos that is not there") {
		t.Errorf("integrity of an archive with a source of no photo: %v; want it damaged", err)
	}
}

// TestBackupOfPostgres: a PostgreSQL archive's backup is a SQLite file
// holding the same photos, whose custody chain verifies, and a path taken
// already is refused with nothing written.
func TestBackupOfPostgres(t *testing.T) {
	if !onPostgres {
		t.Skip("PostgreSQL's archive")
	}
	ctx := context.Background()
	db := open(t)
	importFixture(t, db)
	path := filepath.Join(t.TempDir(), "copy.db")
	if err := db.Backup(ctx, path); err != nil {
		t.Fatal(err)
	}
	cp, err := OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	n, err := cp.Count(ctx)
	if want, _ := db.Count(ctx); err != nil || n != want || n == 0 {
		t.Errorf("the backup holds %d photos (%v), want %d", n, err, want)
	}
	if _, problems, err := cp.VerifyCustody(ctx, nil); err != nil || len(problems) > 0 {
		t.Errorf("the backup's custody: %v %v", problems, err)
	}
	if err := db.Backup(ctx, path); photo.ErrorCode(err) != photo.EInvalid {
		t.Errorf("a backup onto a file: %v; want it refused", err)
	}
}

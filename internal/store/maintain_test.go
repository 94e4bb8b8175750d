package store

import (
	"context"
	"os"
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

// TestBackupOfPostgresSaysHow: a PostgreSQL archive is not copied into a
// file by Backup; it is refused, saying how to back it up instead, and
// nothing is written.
func TestBackupOfPostgresSaysHow(t *testing.T) {
	if !onPostgres {
		t.Skip("PostgreSQL's archive")
	}
	db := open(t)
	path := filepath.Join(t.TempDir(), "copy.db")
	err := db.Backup(context.Background(), path)
	if photo.ErrorCode(err) != photo.EInvalid || !strings.Contains(err.Error(), "pg_dump") || !strings.Contains(err.Error(), "syriamap copy") {
		t.Errorf("backup of a PostgreSQL archive: %v; want it refused, naming pg_dump and syriamap copy", err)
	}
	if _, err := os.Stat(path); err == nil {
		t.Error("a file was written")
	}
}

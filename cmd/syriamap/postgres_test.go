package main

import (
	"os"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/pgtest"
)

// TestPostgresArchive: the commands take a postgres:// URL for --db as
// they take a file: the first open imports the samples, verify checks the
// custody chain. A PostgreSQL archive has no folder beside it, so the
// commands that keep or read originals ask where they are, and nothing
// is made in the working directory (a URL once became a folder there).
func TestPostgresArchive(t *testing.T) {
	db := pgtest.Database(t)
	t.Chdir(t.TempDir())
	out, _, err := runCmd(t, "", "list", "--db", db)
	if err != nil || !strings.Contains(out, "Ras al-Ayn") {
		t.Fatalf("list on a new PostgreSQL archive: %v\n%s", err, out)
	}
	_, _, err = runCmd(t, "", "verify", "--db", db)
	if err == nil || !strings.Contains(err.Error(), "--originals") {
		t.Errorf("verify without --originals: %v; want the flag asked for", err)
	}
	if entries, _ := os.ReadDir("."); len(entries) != 0 {
		t.Errorf("the working directory holds %v; want nothing made", entries)
	}
	out, _, err = runCmd(t, "", "verify", "--db", db, "--originals", t.TempDir())
	if err != nil || !strings.Contains(out, "the custody chain holds") {
		t.Errorf("verify --originals: %v\n%s", err, out)
	}
}

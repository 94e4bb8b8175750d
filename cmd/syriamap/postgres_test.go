package main

import (
	"net/url"
	"os"
	"path/filepath"
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
	// A password in the URL (the test server trusts any): never printed.
	u, _ := url.Parse(pgtest.Database(t))
	u.User = url.UserPassword("syriamap", "s3cret")
	db := u.String()
	t.Chdir(t.TempDir())
	out, errOut, err := runCmd(t, "", "list", "--db", db)
	if err != nil || !strings.Contains(out, "Ras al-Ayn") {
		t.Fatalf("list on a new PostgreSQL archive: %v\n%s", err, out)
	}
	printed := out + errOut
	if err := os.WriteFile("captions.txt", []byte("Smoke rises over Aleppo, Syria, July 12, 2016. (Photo by Karam Al-Masri/AFP)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"import", "--db", db, "captions.txt"}, {"backup", "--db", db, filepath.Join(t.TempDir(), "b.db")}} {
		out, errOut, err := runCmd(t, "", args...)
		if err != nil {
			t.Fatalf("%s: %v\n%s", args[0], err, errOut)
		}
		printed += out + errOut
	}
	if strings.Contains(printed, "s3cret") || !strings.Contains(printed, "syriamap:xxxxx@") {
		t.Errorf("the commands printed the archive's password, or no address:\n%s", printed)
	}
	_, _, err = runCmd(t, "", "verify", "--db", db)
	if err == nil || !strings.Contains(err.Error(), "--originals") {
		t.Errorf("verify without --originals: %v; want the flag asked for", err)
	}
	os.Remove("captions.txt")
	if entries, _ := os.ReadDir("."); len(entries) != 0 {
		t.Errorf("the working directory holds %v; want nothing made", entries)
	}
	out, _, err = runCmd(t, "", "verify", "--db", db, "--originals", t.TempDir())
	if err != nil || !strings.Contains(out, "the custody chain holds") {
		t.Errorf("verify --originals: %v\n%s", err, out)
	}
}

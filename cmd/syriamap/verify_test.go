package main

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "modernc.org/sqlite"
)

// TestVerify (issue 42, parts 1 and 2): images imported are kept as
// read beside the archive, so the folder they came from may go; verify
// re-hashes them and walks the custody chain; a stored original with one
// flipped bit and a custody record changed by hand are each reported
// with their photo, and verify exits 1.
func TestVerify(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	photos := filepath.Join(dir, "photos")
	os.MkdirAll(photos, 0o755)
	for _, name := range []string{"iptc-utf8.jpg", "xmp-only.jpg", "check-abroad.jpg"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "internal", "imagemeta", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(photos, name), b, 0o644)
	}
	if out, errOut, err := runCmd(t, "", "import", "--db", db, photos); err != nil {
		t.Fatalf("import: %v\n%s%s", err, out, errOut)
	}
	kept, _ := filepath.Glob(filepath.Join(dir, "originals", "*", "*", "*"))
	if len(kept) != 3 {
		t.Fatalf("%d originals kept beside the archive, want 3: %v", len(kept), kept)
	}
	os.RemoveAll(photos) // the folder may go: the originals stay
	out, _, err := runCmd(t, "", "verify", "--db", db)
	if err != nil || !strings.Contains(out, "3 originals") || !strings.Contains(out, "the custody chain holds") {
		t.Fatalf("verify of an intact archive: %v\n%s", err, out)
	}

	// One bit of one original flipped at rest.
	os.Chmod(kept[0], 0o644)
	b, _ := os.ReadFile(kept[0])
	b[len(b)/2] ^= 1
	os.WriteFile(kept[0], b, 0o444)
	out, _, err = runCmd(t, "", "verify", "--db", db)
	if exitCode(err) != 1 || !strings.Contains(out, "MISMATCH photo ") || !strings.Contains(out, "changed at rest") {
		t.Errorf("a flipped bit: exit %d\n%s", exitCode(err), out)
	}
	b[len(b)/2] ^= 1
	os.WriteFile(kept[0], b, 0o444)

	// A custody record changed by hand.
	raw, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	var photo string
	raw.QueryRow(`SELECT photo_id FROM custody WHERE action = 'import' ORDER BY seq LIMIT 1`).Scan(&photo)
	if _, err := raw.Exec(`UPDATE custody SET detail = replace(detail, 'photos', 'elsewhere') WHERE action = 'import' AND photo_id = ?`, photo); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	out, _, err = runCmd(t, "", "verify", "--db", db)
	if exitCode(err) != 1 || !strings.Contains(out, "MISMATCH photo "+photo+": custody record") {
		t.Errorf("a changed custody record of %s: exit %d\n%s", photo, exitCode(err), out)
	}
}

// TestVerifySinceACheckpoint: verify --checkpoint writes the chain's head
// to a file kept elsewhere; after the newest records are deleted and the
// head moved to the new last one (both in the archive's file), verify
// alone finds the chain whole, and verify --since that file exits 1
// naming the records lost; a caption edited in its row is named too
// (issue 52, fault 2).
func TestVerifySinceACheckpoint(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	captions := filepath.Join(dir, "captions.txt")
	os.WriteFile(captions, []byte("Boys play in Aleppo, Syria, July 12, 2016. (Photo by A. Person/AFP)\n\nA market in Damascus, Syria, August 1, 2016. (Photo by B. Person/Reuters)\n"), 0o644)
	if out, errOut, err := runCmd(t, "", "import", "--db", db, captions); err != nil {
		t.Fatalf("import: %v\n%s%s", err, out, errOut)
	}
	cp := filepath.Join(dir, "elsewhere", "custody-head.json")
	os.MkdirAll(filepath.Dir(cp), 0o755)
	out, _, err := runCmd(t, "", "verify", "--db", db, "--checkpoint", cp)
	if exitCode(err) != 0 || !strings.Contains(out, "written to "+cp) {
		t.Fatalf("verify --checkpoint: exit %d\n%s", exitCode(err), out)
	}
	if out, _, err := runCmd(t, "", "verify", "--db", db, "--since", cp); exitCode(err) != 0 || !strings.Contains(out, "grew from it") {
		t.Fatalf("verify --since on the chain as it was: exit %d\n%s", exitCode(err), out)
	}
	raw, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`DELETE FROM custody WHERE seq > 2`, `UPDATE custody_head SET seq = 2, hash = (SELECT hash FROM custody WHERE seq = 2)`} {
		if _, err := raw.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	raw.Close()
	if out, _, err := runCmd(t, "", "verify", "--db", db); exitCode(err) != 0 {
		t.Fatalf("verify alone on the shortened chain (it cannot know): exit %d\n%s", exitCode(err), out)
	}
	out, _, err = runCmd(t, "", "verify", "--db", db, "--since", cp)
	// Verify alone wrote its own record (a fixity check) where the lost
	// ones were: the checkpoint's record is now another.
	if exitCode(err) != 1 || !strings.Contains(out, "is not the one the checkpoint") {
		t.Errorf("verify --since on the shortened chain: exit %d\n%s", exitCode(err), out)
	}
	raw, _ = sql.Open("sqlite", db)
	raw.Exec(`UPDATE photos SET caption = 'Boys play in Homs.' WHERE caption LIKE 'Boys%'`)
	raw.Close()
	out, _, err = runCmd(t, "", "verify", "--db", db)
	if exitCode(err) != 1 || !strings.Contains(out, "its caption is not the one its custody records") {
		t.Errorf("verify of an edited caption: exit %d\n%s", exitCode(err), out)
	}
	if _, _, err := runCmd(t, "", "verify", "--db", db, "--since", captions); exitCode(err) != 1 || !strings.Contains(err.Error(), "not a custody checkpoint") {
		t.Errorf("verify --since a file that is not a checkpoint: %v", err)
	}
}

package main

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
		b, err := os.ReadFile(filepath.Join("..", "..", "internal", "evidence", "imagemeta", "testdata", name))
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
	if _, err := raw.Exec(`UPDATE custody SET detail = replace(detail, '"size"', '"bytes"') WHERE action = 'import' AND photo_id = ?`, photo); err != nil {
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

// TestCustodyKeepsNamesNotPaths: an import's custody records name the
// file by its name, hash and size and the command, not the importing
// machine's folders nor its system user — unless --record-paths is given
// (issue 52, fault 6: both travelled into every evidence bag).
func TestCustodyKeepsNamesNotPaths(t *testing.T) {
	for _, recordPaths := range []bool{false, true} {
		dir := t.TempDir()
		db := filepath.Join(dir, "a.db")
		captions := filepath.Join(dir, "private-folder", "captions.txt")
		os.MkdirAll(filepath.Dir(captions), 0o755)
		os.WriteFile(captions, []byte("Boys play in Aleppo, Syria, July 12, 2016. (Photo by A. Person/AFP)\n"), 0o644)
		args := []string{"import", "--db", db, captions}
		if recordPaths {
			args = append(args, "--record-paths")
		}
		if out, errOut, err := runCmd(t, "", args...); err != nil {
			t.Fatalf("import: %v\n%s%s", err, out, errOut)
		}
		raw, err := sql.Open("sqlite", db)
		if err != nil {
			t.Fatal(err)
		}
		var actor, detail string
		raw.QueryRow(`SELECT actor, detail FROM custody WHERE action = 'import'`).Scan(&actor, &detail)
		raw.Close()
		hasPath, hasUser := strings.Contains(detail, "private-folder"), strings.Contains(actor, "system user")
		if !strings.Contains(detail, `"source":"`) || !strings.Contains(detail, "captions.txt") || hasPath != recordPaths || hasUser != recordPaths {
			t.Errorf("--record-paths %v: actor %q, detail %s", recordPaths, actor, detail)
		}
	}
}

// TestLeftoversOfAKilledImportAreRemoved: an original no photo names and
// a half-written file in the store of originals (what a killed import
// leaves) are named by verify, removed by verify --repair, and by the
// next import once an hour old (issue 52, fault 6).
func TestLeftoversOfAKilledImportAreRemoved(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	captions := filepath.Join(dir, "captions.txt")
	os.WriteFile(captions, []byte("Boys play in Aleppo, Syria, July 12, 2016. (Photo by A. Person/AFP)\n"), 0o644)
	if out, errOut, err := runCmd(t, "", "import", "--db", db, captions); err != nil {
		t.Fatalf("import: %v\n%s%s", err, out, errOut)
	}
	store := filepath.Join(dir, "originals")
	leave := func() (orphan, temp string) {
		sum := strings.Repeat("ab", 32)
		orphan = filepath.Join(store, "ab", "ab", sum)
		temp = filepath.Join(store, ".stage-123")
		os.MkdirAll(filepath.Dir(orphan), 0o755)
		os.WriteFile(orphan, []byte("half an import"), 0o444)
		os.WriteFile(temp, []byte("half a file"), 0o600)
		old := time.Now().Add(-2 * time.Hour)
		os.Chtimes(orphan, old, old)
		os.Chtimes(temp, old, old)
		return orphan, temp
	}
	gone := func(paths ...string) bool {
		for _, p := range paths {
			if _, err := os.Stat(p); err == nil {
				return false
			}
		}
		return true
	}
	orphan, temp := leave()
	out, _, err := runCmd(t, "", "verify", "--db", db)
	if err != nil || !strings.Contains(out, "1 originals no photo names and 1 half-written files") || gone(orphan) {
		t.Errorf("verify with leftovers: %v\n%s", err, out)
	}
	out, _, err = runCmd(t, "", "verify", "--db", db, "--repair")
	if err != nil || !strings.Contains(out, "removed 1 originals") || !gone(orphan, temp) {
		t.Errorf("verify --repair: %v\n%s", err, out)
	}
	orphan, temp = leave()
	more := filepath.Join(dir, "more.txt")
	os.WriteFile(more, []byte("A market in Damascus, Syria, August 1, 2016. (Photo by B. Person/Reuters)\n"), 0o644)
	if _, errOut, err := runCmd(t, "", "import", "--db", db, more); err != nil || !gone(orphan, temp) || !strings.Contains(errOut, "left by an interrupted import") {
		t.Errorf("the next import: %v, leftovers gone %v\n%s", err, gone(orphan, temp), errOut)
	}
}

// TestVerifyNamesEveryRowEdit (issue 65, fault 8): syriamap verify passed
// after a photo's row was deleted and after its geocoder's placement,
// photographer, re-use flag or event links were edited in the database,
// and stopped on a scan error at a date stored as text. Each edit, made
// on a copy of a fresh archive, makes verify exit 1 naming the photo.
func TestVerifyNamesEveryRowEdit(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	captions := filepath.Join(dir, "captions.txt")
	os.WriteFile(captions, []byte("Boys play in Aleppo, Syria, July 12, 2016. (Photo by A. Person/AFP)\n\nA market in Damascus, Syria, August 1, 2016. (Photo by B. Person/Reuters)\n"), 0o644)
	if out, errOut, err := runCmd(t, "", "import", "--db", db, captions); err != nil {
		t.Fatalf("import: %v\n%s%s", err, out, errOut)
	}
	if out, _, err := runCmd(t, "", "verify", "--db", db); err != nil {
		t.Fatalf("verify of the fresh archive: %v\n%s", err, out)
	}
	raw, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	var boys, market string
	raw.QueryRow(`SELECT id FROM photos WHERE caption LIKE 'Boys%'`).Scan(&boys)
	raw.QueryRow(`SELECT id FROM photos WHERE caption LIKE 'A market%'`).Scan(&market)
	for _, tc := range []struct{ name, sql, photo, want string }{
		{"photo deleted", `DELETE FROM photos WHERE id = '` + boys + `'`, boys, "its row is gone"},
		{"geocoder's placement", `UPDATE photos SET place_id = 'gn:0', lon = 36.0, lat = 35.0 WHERE id = '` + market + `'`, market, "the geocoder placed it"},
		{"photographer", `UPDATE photos SET photographer = 'C. Person' WHERE id = '` + boys + `'`, boys, "its photographer is"},
		{"re-use flag", `UPDATE photos SET reuse = 'conflict', reuse_of = '` + boys + `' WHERE id = '` + market + `'`, market, "its re-use flag"},
		{"event link", `INSERT INTO photo_event_links (photo, dataset, event, version, decision, by, at) VALUES ('` + boys +
			`', 'ucdp-ged', '1', '19.1', 'confirmed', 'rana', '2020-01-01T00:00:00Z')`, boys, "its link to event"},
		{"date stored as text", `UPDATE photos SET date_from = 'July' WHERE id = '` + boys + `'`, boys, "its date_from is stored as July"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			copyDB := filepath.Join(t.TempDir(), "a.db")
			if _, err := raw.Exec(`VACUUM INTO ?`, copyDB); err != nil {
				t.Fatal(err)
			}
			edit, _ := sql.Open("sqlite", copyDB)
			if _, err := edit.Exec(tc.sql); err != nil {
				t.Fatal(err)
			}
			edit.Close()
			out, _, err := runCmd(t, "", "verify", "--db", copyDB)
			if exitCode(err) != 1 || !strings.Contains(out, "MISMATCH photo "+tc.photo+": "+tc.want) {
				t.Errorf("%s: exit %d (%v)\n%s\nwant MISMATCH photo %s: %s…", tc.name, exitCode(err), err, out, tc.photo, tc.want)
			}
		})
	}
	raw.Close()
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestArchiveCommands walks through the archive commands as a person would.
func TestArchiveCommands(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	seeds, _ := filepath.Glob(filepath.Join("..", "..", "geodata", "samples", "*.txt"))
	csv := filepath.Join(dir, "more.csv")
	os.WriteFile(csv, []byte("caption,lat,lon\n\"A woman walks past her destroyed home, May 2, 2016. REUTERS/Ammar Abdullah\",,\n"), 0o644)
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte("{\"caption\": \"ok\"}\n{\"caption\": \n"), 0o644)

	out, _, err := runCmd(t, "", append([]string{"import", "--db", db}, append(seeds, csv)...)...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "imported 3 of 3 files") || !strings.Contains(out, "16 added") || !strings.Contains(out, "1 unplaced") {
		t.Errorf("first import: %q", out)
	}
	out, _, err = runCmd(t, "", append([]string{"import", "--db", db}, append(seeds, csv)...)...)
	if err != nil || !strings.Contains(out, "17 unchanged") || !strings.Contains(out, "nothing changed") {
		t.Errorf("re-import: %q, %v", out, err)
	}
	out, errOut, err := runCmd(t, "", "import", "--db", db, bad)
	if err == nil || exitCode(err) != 1 || !strings.Contains(errOut, "bad.jsonl:2: not a JSON object") || !strings.Contains(out, "2 rejected") {
		t.Errorf("bad file: out %q, err %q, %v", out, errOut, err)
	}
	out, _, err = runCmd(t, "", "list", "--db", db, "--unplaced")
	if err != nil || !strings.Contains(out, "her destroyed home") || !strings.Contains(out, "1 of 1 photos") {
		t.Fatalf("list --unplaced: %q, %v", out, err)
	}
	id := strings.Fields(strings.Split(out, "\n")[1])[0]
	out, _, err = runCmd(t, "", "places", "search", "Aleppo")
	if err != nil || !strings.Contains(out, "gn:170063") {
		t.Errorf("places search: %q, %v", out, err)
	}
	out, _, err = runCmd(t, "", "set-place", "--db", db, "--note", "read on a map", id, "--point", "37.05,36.27")
	if err != nil || !strings.Contains(out, "is now at a point") {
		t.Errorf("set-place: %q, %v", out, err)
	}
	if _, _, err := runCmd(t, "", "set-place", "--db", db, id, "--point", "east"); exitCode(err) != 2 {
		t.Errorf("a bad point: %v", err)
	}
	out, _, err = runCmd(t, "", "regeocode", "--db", db)
	if err != nil || !strings.Contains(out, "re-geocoded 16 photos: 0 changed") {
		t.Errorf("regeocode: %q, %v", out, err)
	}
	out, _, _ = runCmd(t, "", "list", "--db", db, "--unplaced")
	if !strings.Contains(out, "0 of 0 photos") {
		t.Errorf("the corrected photo is still unplaced: %q", out)
	}
	// A first run on an empty archive shows the samples.
	t.Setenv("SYRIAMAP_DB", filepath.Join(dir, "fresh.db"))
	out, errOut, err = runCmd(t, "", "list", "--limit", "1")
	if err != nil || !strings.Contains(out, "1 of 15 photos") || !strings.Contains(errOut, "imported the sample captions (15 photos)") {
		t.Errorf("fresh archive: %q %q %v", out, errOut, err)
	}
}

func TestGen(t *testing.T) {
	out, _, err := runCmd(t, "", "gen", "--n", "5", "--seed", "2")
	if err != nil || strings.Count(out, "\n\n") != 5 {
		t.Fatalf("gen: %q, %v", out, err)
	}
	again, _, _ := runCmd(t, "", "gen", "--n", "5", "--seed", "2")
	if again != out {
		t.Error("the same seed gave other captions")
	}
	if _, _, err := runCmd(t, "", "gen", "--format", "xml"); exitCode(err) != 2 {
		t.Errorf("bad format: %v", err)
	}
}

// TestImportImages imports a folder of JPEGs (the imagemeta fixtures) as
// a person would: bad files named with their reason, exit 1, the rest
// imported; again, nothing read and nothing changed.
func TestImportImages(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	photos := filepath.Join(dir, "photos")
	os.MkdirAll(photos, 0o755)
	names, _ := filepath.Glob(filepath.Join("..", "..", "internal", "evidence", "imagemeta", "testdata", "*.jpg"))
	for _, n := range names {
		b, _ := os.ReadFile(n)
		os.WriteFile(filepath.Join(photos, filepath.Base(n)), b, 0o644)
	}
	out, _, err := runCmd(t, "", "import", "--db", db, photos)
	if exitCode(err) != 1 || !strings.Contains(out, "16 files found, 16 read") || !strings.Contains(out, "3 skipped: 12 added, 1 updated") ||
		!strings.Contains(out, "bad-notjpeg.jpg: not a JPEG file") {
		t.Errorf("first import: %q, %v", out, err)
	}
	out, _, _ = runCmd(t, "", "import", "--db", db, photos)
	if !strings.Contains(out, "16 files found, 3 read") || !strings.Contains(out, "0 added, 0 updated, 13 unchanged") {
		t.Errorf("again: %q", out)
	}
	good := filepath.Join(photos, "iptc-utf8.jpg")
	out, _, err = runCmd(t, "", "import", "--db", db, good)
	if err != nil || !strings.Contains(out, "nothing changed") {
		t.Errorf("one unchanged file: %q, %v", out, err)
	}
	if _, _, err := runCmd(t, "", "import", "--db", db, "--include", "[", photos); exitCode(err) != 2 {
		t.Errorf("a bad pattern: %v", err)
	}
}

// TestImportWarnsOfJoinedCaptions (issue 68, 6): `import` of a text file
// whose captions are on consecutive lines imports them as the file says
// (one photo) and warns, naming the line to separate by a blank line.
func TestImportWarnsOfJoinedCaptions(t *testing.T) {
	dir := t.TempDir()
	txt := filepath.Join(dir, "joined.txt")
	os.WriteFile(txt, []byte("A man walks past a damaged building in Saraqeb, Syria January 15, 2018.\nA boy carries bread in Douma, Syria January 16, 2018.\n"), 0o644)
	out, errOut, err := runCmd(t, "", "import", "--db", filepath.Join(dir, "a.db"), txt)
	if err != nil {
		t.Fatal(err, errOut)
	}
	if !strings.Contains(out, "1 added") || !strings.Contains(errOut, "joined.txt:2: two captions may be joined into one photo: separate captions by a blank line") {
		t.Errorf("stdout %q, stderr %q; want 1 added and a warning naming line 2", out, errOut)
	}
}

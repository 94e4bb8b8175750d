package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// places add puts a place the gazetteer lacks into the archive: the next
// import's caption naming it lands there, regeocode keeps it, places
// search finds it with --db; places export --added and places import
// carry it to another archive; a bad line is refused with its file and
// line, and nothing of the file is kept.
func TestPlacesAddExportImport(t *testing.T) {
	dir := t.TempDir()
	db, other := filepath.Join(dir, "a.db"), filepath.Join(dir, "b.db")
	if _, _, err := runCmd(t, "", "places", "add", "--db", db, "--name", "Qarqur Tent Shelter", "--kind", "tent", "--point", "36.36,35.89"); err == nil {
		t.Error("a place of an unknown kind is added")
	}
	out, _, err := runCmd(t, "", "places", "add", "--db", db, "--name", "Qarqur Tent Shelter", "--alias", "Qarqour Shelter", "--kind", "camp",
		"--point", "36.3627,35.8912", "--source", "https://example.org/page", "--by", "rana")
	if err != nil || !strings.Contains(out, "added arc:qarqur-tent-shelter") {
		t.Fatalf("places add: %q, %v", out, err)
	}
	captions := filepath.Join(dir, "captions.txt")
	os.WriteFile(captions, []byte("Children at the Qarqour Shelter, Syria, March 4, 2017. (Photo by B. Person/AFP)\n"), 0o644)
	if _, _, err := runCmd(t, "", "import", "--db", db, captions); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCmd(t, "", "regeocode", "--db", db); err != nil {
		t.Fatal(err)
	}
	if out, _, _ := runCmd(t, "", "list", "--db", db); !strings.Contains(out, "Qarqur Tent Shelter") {
		t.Errorf("the imported caption is not at the added place after regeocode:\n%s", out)
	}
	if out, _, _ := runCmd(t, "", "places", "search", "--db", db, "Qarqur"); !strings.Contains(out, "arc:qarqur-tent-shelter") {
		t.Errorf("places search --db does not find it:\n%s", out)
	}
	export, _, err := runCmd(t, "", "places", "export", "--added", "--db", db)
	if err != nil || strings.Count(export, "\n") != 1 || !strings.Contains(export, `"added_by":"rana"`) {
		t.Fatalf("places export --added: %q, %v", export, err)
	}
	file := filepath.Join(dir, "places.jsonl")
	os.WriteFile(file, []byte(export+`{"id":"arc:x","name":"X","kind":"camp","lon":500,"lat":35,"added_by":"r","added_at":"2026-01-01T00:00:00Z"}`+"\n"), 0o644)
	if _, _, err := runCmd(t, "", "places", "import", "--db", other, file); err == nil || !strings.Contains(err.Error(), "places.jsonl:2:") {
		t.Errorf("a bad second line: %v, want its file and line", err)
	}
	os.WriteFile(file, []byte(export), 0o644)
	if out, _, err := runCmd(t, "", "places", "import", "--db", other, file); err != nil || !strings.Contains(out, "added 1 of 1") {
		t.Errorf("places import: %q, %v", out, err)
	}
	if again, _, _ := runCmd(t, "", "places", "export", "--added", "--db", other); again != export {
		t.Errorf("the other archive exports\n%s\nwant\n%s", again, export)
	}
}

package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/story"
)

// TestStoriesExportImport moves a story from one archive to another: its
// steps come over; a photo the other archive lacks stays by its caption;
// a second import skips it, --replace replaces it; a bad line is refused
// with its file and line.
func TestStoriesExportImport(t *testing.T) {
	dir := t.TempDir()
	from, to := filepath.Join(dir, "from.db"), filepath.Join(dir, "to.db")
	seeds, _ := filepath.Glob(filepath.Join("..", "..", "geodata", "samples", "*.txt"))
	if _, _, err := runCmd(t, "", append([]string{"import", "--db", from}, seeds...)...); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCmd(t, "", "list", "--db", from, "--limit", "1")
	if err != nil {
		t.Fatal(err)
	}
	id := strings.Fields(strings.Split(out, "\n")[1])[0]
	a, closeDB, err := openArchive(context.Background(), from, openWrite, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	st := story.Story{Title: "Samples", Status: story.Published, Steps: []story.Step{{Heading: "One", Photos: []story.PhotoRef{{ID: id, Caption: "its caption"}}},
		{Heading: "Two", State: "from=2016-01&to=2016-12"}}}
	st.Validate()
	if _, err := a.SaveStory(context.Background(), st, "", "rana", ""); err != nil {
		t.Fatal(err)
	}
	closeDB()
	out, errOut, err := runCmd(t, "", "stories", "export", "--db", from)
	if err != nil || strings.Count(out, "\n") != 1 || !strings.Contains(errOut, "1 story exported") {
		t.Fatalf("export: %q %q %v", out, errOut, err)
	}
	file := filepath.Join(dir, "stories.jsonl")
	os.WriteFile(file, []byte(out), 0o644)
	if out, _, err := runCmd(t, "", "stories", "import", "--db", to, file); err != nil || !strings.Contains(out, "1 imported, 0 replaced, 0 skipped") {
		t.Fatalf("import into an empty archive: %q %v", out, err)
	}
	if out, _, err := runCmd(t, "", "stories", "import", "--db", to, file); err != nil || !strings.Contains(out, "0 imported, 0 replaced, 1 skipped") {
		t.Errorf("import again: %q %v", out, err)
	}
	if out, _, err := runCmd(t, "", "stories", "import", "--db", to, "--replace", file); err != nil || !strings.Contains(out, "0 imported, 1 replaced, 0 skipped") {
		t.Errorf("import --replace: %q %v", out, err)
	}
	b, closeB, err := openArchive(context.Background(), to, openReadOnly, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	got, err := b.Story(context.Background(), "samples")
	closeB()
	if err != nil || got.Author != "rana" || len(got.Steps) != 2 || got.Steps[0].Photos[0].Caption == "" {
		t.Errorf("the imported story: %+v %v", got, err)
	}
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte("{\"title\": \"\", \"status\": \"draft\", \"steps\": []}\n"), 0o644)
	if _, _, err := runCmd(t, "", "stories", "import", "--db", to, bad); err == nil || !strings.Contains(err.Error(), "bad.jsonl:1: ") || !strings.Contains(err.Error(), "needs a title") {
		t.Errorf("a bad line: %v", err)
	}
	// All or nothing: a good story before a bad line is not saved.
	good, _ := os.ReadFile(file)
	good = []byte(strings.Replace(string(good), `"slug":"samples"`, `"slug":"samples-two"`, 1))
	if !strings.Contains(string(good), `"slug":"samples-two"`) {
		t.Fatal("the export has no slug to rename")
	}
	mixed := filepath.Join(dir, "mixed.jsonl")
	os.WriteFile(mixed, append(good, []byte("{\"title\": \"\", \"status\": \"draft\", \"steps\": []}\n")...), 0o644)
	if _, _, err := runCmd(t, "", "stories", "import", "--db", to, mixed); err == nil || !strings.Contains(err.Error(), "mixed.jsonl:2: ") ||
		!strings.Contains(err.Error(), "nothing was imported") {
		t.Errorf("a bad second line: %v", err)
	}
	b, closeB, err = openArchive(context.Background(), to, openReadOnly, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	defer closeB()
	if _, err := b.Story(context.Background(), "samples-two"); err == nil {
		t.Errorf("the story before the bad line was saved")
	}
}

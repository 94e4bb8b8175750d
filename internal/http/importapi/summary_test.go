package importapi

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/http"
	"strings"
	"testing"
)

// TestJobCountsWhatHappened (issue 68, 6): an upload's job says in its
// JSON how many files were imported, refused and skipped (a file of a
// kind syriamap does not take, left out by the page and named to the
// job), so that a script reads them without reading each file's line;
// a skipped file is named with why (one whose name is no file's name is
// counted, and refuses nothing), and a text file whose captions are
// on consecutive lines is imported with a warning naming the line.
func TestJobCountsWhatHappened(t *testing.T) {
	h := newHarness(t, DefaultLimits, true)
	var ids []string
	for _, f := range [][2]string{
		{"douma.csv", caption("Douma")},
		{"bad.csv", caption("Idlib") + "\"\"\n"},
		{"joined.txt", "A man walks past a damaged building in Saraqeb, Syria January 15, 2018.\nA boy carries bread in Douma, Syria January 16, 2018.\n"},
	} {
		res, path := h.tusCreate(t, "rana", f[0], len(f[1]))
		if res.StatusCode != http.StatusCreated {
			t.Fatalf("%s: create %d", f[0], res.StatusCode)
		}
		if res := h.tusSend(t, "rana", path, f[1]); res.StatusCode != http.StatusNoContent {
			t.Fatalf("%s: PATCH %d", f[0], res.StatusCode)
		}
		ids = append(ids, strings.TrimPrefix(path, "/api/uploads/"))
	}
	b, _ := json.Marshal(map[string][]string{"uploads": ids, "skipped": {"report.pdf", "notes/\u202eevil.doc"}})
	res, text := h.do(t, "rana", "POST", "/api/imports", bytes.NewReader(b), "Content-Type", "application/json")
	if res.StatusCode != http.StatusAccepted {
		t.Fatalf("%d %s; want 202", res.StatusCode, text)
	}
	h.wait(t, "rana", res.Header.Get("Location"))
	_, text = h.do(t, "rana", "GET", res.Header.Get("Location"), nil)
	var job struct {
		Counts  map[string]int `json:"counts"`
		Skipped []struct {
			Name, Why string
		} `json:"skipped"`
		Files []struct {
			Name     string   `json:"name"`
			Warnings []string `json:"warnings"`
		} `json:"files"`
	}
	if err := json.Unmarshal([]byte(text), &job); err != nil {
		t.Fatal(err)
	}
	if want := map[string]int{"imported": 2, "refused": 1, "skipped": 2}; !maps.Equal(job.Counts, want) {
		t.Errorf("counts %v; want %v in %s", job.Counts, want, text)
	}
	if len(job.Skipped) != 1 || job.Skipped[0].Name != "report.pdf" || !strings.Contains(job.Skipped[0].Why, "not a file syriamap imports") {
		t.Errorf("skipped %+v; want report.pdf, saying why", job.Skipped)
	}
	var warned []string
	for _, f := range job.Files {
		warned = append(warned, f.Warnings...)
	}
	if len(warned) != 1 || warned[0] != "joined.txt:2: two captions may be joined into one photo: separate captions by a blank line" {
		t.Errorf("warnings %q; want joined.txt's line 2", warned)
	}
}

package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/photo"
)

// TestAboutCitesTheEvents (issue 56, 1): with the bundled UCDP GED events
// imported, the about page counts them and cites them as CC BY asks, in
// both languages; without events it says nothing of them.
func TestAboutCitesTheEvents(t *testing.T) {
	_, ts, a := newTestServer(t)
	if _, page := get(t, ts, "/about"); strings.Contains(string(page), `data-testid="events"`) {
		t.Error("an archive without events has an events section")
	}
	if _, n, err := a.ImportBundledEvents(context.Background()); err != nil || n != 16566 {
		t.Fatalf("the bundled events: %d, %v", n, err)
	}
	_, page := get(t, ts, "/about")
	if !strings.Contains(string(page), "16,566 events of UCDP") || !strings.Contains(string(page), "version 19.1") ||
		!strings.Contains(string(page), "Sundberg, Ralph, and Erik Melander, 2013") {
		t.Errorf("the about page does not count and cite the events:\n%.600s", page[strings.Index(string(page), "<main"):])
	}
	if _, page := get(t, ts, "/about?lang=ar"); !strings.Contains(string(page), "أحداث النزاع") || !strings.Contains(string(page), "Sundberg") {
		t.Error("the Arabic about page does not cite the events")
	}
}

// TestPhotoEventCandidates (issue 56, 2): a photo of clashes in Aleppo on
// 1 January 2016 has the GED events of that day in Aleppo as likely
// candidates, said in words; a reader never sees an ACLED event, an
// editor does; a photo with no date has none; a withheld photo is 404 to
// a reader.
func TestPhotoEventCandidates(t *testing.T) {
	e := newEditorServer(t, Options{})
	ctx := context.Background()
	if _, _, err := e.a.ImportBundledEvents(ctx); err != nil {
		t.Fatal(err)
	}
	acled, err := archive.ReadEventFiles([]string{"../../conflict/testdata/acled-synthetic.csv"}, "2020-01")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.a.ImportEvents(ctx, acled, "test"); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "events.txt")
	os.WriteFile(path, []byte("Rebel fighters fire a mortar during clashes in Aleppo, Syria January 1, 2016. REUTERS/Abdalrhman Ismail\n\n"+
		"A man walks past a damaged building in Saraqeb, Idlib province, Syria January 15, 2018. REUTERS/Ammar Abdullah\n\n"+
		"Boys fly kites in Aleppo, Syria. REUTERS/Abdalrhman Ismail\n"), 0o644)
	if _, err := e.a.ImportFile(ctx, path, "", nil); err != nil {
		t.Fatal(err)
	}
	type answer struct {
		Candidates []struct {
			Dataset, Version, ID, Why string
			Score                     float64
			Likely                    bool
		}
		Links []any
	}
	read := func(id string, editor bool) (int, answer) {
		t.Helper()
		var h []string
		if editor {
			h = []string{"Authorization", "Bearer " + e.token}
		}
		res, body := get(t, e.ts, "/api/photos/"+id+"/events", h...)
		var a answer
		json.Unmarshal(body, &a)
		return res.StatusCode, a
	}
	aleppo := e.photoID(t, "?q=mortar")
	status, a := read(aleppo, false)
	found := false
	for _, c := range a.Candidates {
		if c.ID == "214808" && c.Dataset == "ucdp-ged" && c.Version == "19.1" && c.Likely && strings.Contains(c.Why, "same city, same day") {
			found = true
		}
	}
	if status != http.StatusOK || !found || a.Links == nil {
		t.Errorf("Aleppo, 1 January 2016: %d, %+v; want GED 214808 likely, same city, same day", status, a)
	}
	saraqeb := e.photoID(t, "?q=Saraqeb")
	hasACLED := func(a answer) bool {
		for _, c := range a.Candidates {
			if c.Dataset == "acled" {
				return true
			}
		}
		return false
	}
	if _, a := read(saraqeb, false); hasACLED(a) {
		t.Error("a reader is answered an ACLED event")
	}
	if _, a := read(saraqeb, true); !hasACLED(a) {
		t.Errorf("an editor is not answered the ACLED event of Saraqeb that day: %+v", a)
	}
	if _, a := read(e.photoID(t, "?q=kites"), false); len(a.Candidates) != 0 {
		t.Errorf("an undated photo: %+v", a)
	}
	if _, err := e.a.SetHarm(ctx, aleppo, photo.HarmWithheld, "rana", "a test"); err != nil {
		t.Fatal(err)
	}
	if status, _ := read(aleppo, false); status != http.StatusNotFound {
		t.Errorf("a withheld photo's events to a reader: %d, want 404", status)
	}
}

package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/http/publish"
	"github.com/syriamap/syriamap/internal/http/publish/sitetest"
	"github.com/syriamap/syriamap/internal/photo"
)

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

// TestNoACLEDOnPublicRoutes (issue 56, 5): with ACLED events in the
// archive and a photo of one of them, no public route — walked whole, as
// a reader — and no file of a published copy holds an ACLED event's id,
// actor or notes; an editor's answer of the photo's events does.
func TestNoACLEDOnPublicRoutes(t *testing.T) {
	e := newEditorServer(t, Options{})
	ctx := context.Background()
	acled, err := archive.ReadEventFiles([]string{"../../conflict/testdata/acled-synthetic.csv"}, "2020-01")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.a.ImportEvents(ctx, acled, "test"); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "saraqeb.txt")
	os.WriteFile(path, []byte("A man walks past a damaged building in Saraqeb, Idlib province, Syria January 15, 2018. REUTERS/Ammar Abdullah\n"), 0o644)
	if _, err := e.a.ImportFile(ctx, path, "", nil); err != nil {
		t.Fatal(err)
	}
	id := e.photoID(t, "?q=Saraqeb")
	traces := []string{"SYR900001", "SYR900002", "A made-up air strike", "Synthetic Source", "Hayat Tahrir al Sham"}
	// An editor links the photo to the ACLED event: the link is theirs
	// to see, and the bag's, never a reader's.
	if _, err := e.a.SetEventLink(ctx, id, "acled", "SYR900001", photo.LinkConfirmed, "editor rana"); err != nil {
		t.Fatal(err)
	}
	_, body := get(t, e.ts, "/api/photos/"+id+"/events", "Authorization", "Bearer "+e.token)
	if !strings.Contains(string(body), `"links":[{"dataset":"acled","version":"2020-01","id":"SYR900001"`) {
		t.Fatalf("an editor is not answered the ACLED event and link: the test would read nothing: %s", body)
	}
	if _, page := get(t, e.ts, "/events/acled/SYR900001", "Authorization", "Bearer "+e.token); !strings.Contains(string(page), "A made-up air strike") {
		t.Error("an editor is not shown the ACLED event's page")
	}
	if res, _ := get(t, e.ts, "/events/acled/SYR900001"); res.StatusCode != http.StatusNotFound {
		t.Errorf("a reader asks for the ACLED event's page: %d, want 404", res.StatusCode)
	}
	for _, q := range []string{"?event=acled:SYR900001", "?event=any"} {
		if _, body := get(t, e.ts, "/api/photos.geojson"+q); len(features(t, body).Features) != 0 {
			t.Errorf("a reader's %s selects the photo linked to an ACLED event", q)
		}
	}
	vars := map[string]string{"id": id, "collection": "photos", "z": "7", "x": "77", "y": "50", "file": "app.js", "path": "x.jpg", "sha": strings.Repeat("ab", 32), "slug": "s",
		"dataset": "acled", "event": "SYR900001", "look": "1"}
	reads := 0
	for _, r := range routesOf(t, e.s, vars) {
		if !slices.Contains(r.methods, http.MethodGet) {
			continue
		}
		reads++
		for _, q := range []string{"", "?q=Saraqeb&download=1", "?lang=ar"} {
			_, body := get(t, e.ts, r.path+q)
			for _, tr := range traces {
				if strings.Contains(string(body), tr) {
					t.Errorf("GET %s%s holds ACLED's %q", r.path, q, tr)
				}
			}
		}
	}
	if reads < 35 {
		t.Fatalf("%d read routes walked", reads)
	}
	dir := t.TempDir()
	if _, err := publish.Publish(ctx, e.a, dir, publish.Options{IncludeUnplaced: true}); err != nil {
		t.Fatal(err)
	}
	for file, texts := range sitetest.Texts(t, dir) {
		for _, text := range texts {
			for _, tr := range traces {
				if strings.Contains(string(text), tr) {
					t.Errorf("the published %s holds ACLED's %q", file, tr)
				}
			}
		}
	}
}

// TestEventsGeoJSONRefusesUnknownParameters (issue 65, 10): a misspelt
// filter of /api/events.geojson (?kidn=) is refused with a 400 and a JSON
// message naming it, as the OGC route refuses one, rather than answering
// every event as if unfiltered; its own parameters, the reader's language
// and download are taken.
func TestEventsGeoJSONRefusesUnknownParameters(t *testing.T) {
	_, ts, a := newTestServer(t)
	if _, _, err := a.ImportBundledEvents(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		query string
		want  int
		bad   string // the parameter the message names
	}{
		{"kidn=one-sided", http.StatusBadRequest, "kidn"},
		{"kind=one-sided&limit=10", http.StatusBadRequest, "limit"},
		{"kind=one-sided&from=2016&to=2016-03&bbox=36,35,38,37&documented=0&download=1&lang=ar", http.StatusOK, ""},
	} {
		resp, body := get(t, ts, "/api/events.geojson?"+c.query)
		if resp.StatusCode != c.want {
			t.Errorf("?%s: %d, want %d: %.200s", c.query, resp.StatusCode, c.want, body)
			continue
		}
		if c.want != http.StatusBadRequest {
			continue
		}
		var msg struct {
			Error string `json:"error"`
		}
		if err := json.Unmarshal(body, &msg); err != nil || !strings.Contains(msg.Error, c.bad) {
			t.Errorf("?%s: %s, want a JSON error naming %q", c.query, body, c.bad)
		}
	}
}

package eventsapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
	"github.com/syriamap/syriamap/internal/photo"
)

// TestPhotoEventCandidates (issue 56, 2): a photo of clashes in Aleppo on
// 1 January 2016 has the GED events of that day in Aleppo as likely
// candidates, said in words; a reader never sees an ACLED event, an
// editor does; a photo with no date has none; a withheld photo is 404 to
// a reader.
func TestPhotoEventCandidates(t *testing.T) {
	e := newServer(t)
	ctx := context.Background()
	if _, _, err := e.A.ImportBundledEvents(ctx); err != nil {
		t.Fatal(err)
	}
	acled, err := archive.ReadEventFiles([]string{"../../conflict/testdata/acled-synthetic.csv"}, "2020-01")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.A.ImportEvents(ctx, acled, "test"); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "events.txt")
	os.WriteFile(path, []byte("Rebel fighters fire a mortar during clashes in Aleppo, Syria January 1, 2016. REUTERS/Abdalrhman Ismail\n\n"+
		"A man walks past a damaged building in Saraqeb, Idlib province, Syria January 15, 2018. REUTERS/Ammar Abdullah\n\n"+
		"Boys fly kites in Aleppo, Syria. REUTERS/Abdalrhman Ismail\n"), 0o644)
	if _, err := e.A.ImportFile(ctx, path, "", nil); err != nil {
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
			h = []string{"Authorization", "Bearer " + e.Token}
		}
		res, body := httpapitest.Get(t, e.TS, "/api/photos/"+id+"/events", h...)
		var a answer
		json.Unmarshal(body, &a)
		return res.StatusCode, a
	}
	aleppo := httpapitest.PhotoID(t, e.TS, "?q=mortar")
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
	saraqeb := httpapitest.PhotoID(t, e.TS, "?q=Saraqeb")
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
	if _, a := read(httpapitest.PhotoID(t, e.TS, "?q=kites"), false); len(a.Candidates) != 0 {
		t.Errorf("an undated photo: %+v", a)
	}
	if _, err := e.A.SetHarm(ctx, aleppo, photo.HarmWithheld, "rana", "a test"); err != nil {
		t.Fatal(err)
	}
	if status, _ := read(aleppo, false); status != http.StatusNotFound {
		t.Errorf("a withheld photo's events to a reader: %d, want 404", status)
	}
}

// TestEventsGeoJSONRefusesUnknownParameters (issue 65, 10): a misspelt
// filter of /api/events.geojson (?kidn=) is refused with a 400 and a JSON
// message naming it, as the OGC route refuses one, rather than answering
// every event as if unfiltered; its own parameters, the reader's language
// and download are taken.
func TestEventsGeoJSONRefusesUnknownParameters(t *testing.T) {
	e := newServer(t)
	ts, a := e.TS, e.A
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
		resp, body := httpapitest.Get(t, ts, "/api/events.geojson?"+c.query)
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

// TestEventPageInArabic (issue 68, 8): an event's page on an Arabic page
// names its place and sides in Arabic and its id in Arabic digits.
func TestEventPageInArabic(t *testing.T) {
	e := newServer(t)
	if _, _, err := e.A.ImportBundledEvents(context.Background()); err != nil {
		t.Fatal(err)
	}
	d := httpapitest.GetPage(t, e.TS, "/events/ucdp-ged/214808?lang=ar")
	facts := strings.Replace(d.Text("event"), d.Text("headline"), "", 1) // the source's own words, in English
	for _, want := range []string{"حلب", "الحكومة السورية", "المعارضة السورية المسلحة", "٢١٤٨٠٨"} {
		if !strings.Contains(facts, want) {
			t.Errorf("the Arabic event page lacks %q: %.400s", want, facts)
		}
	}
	for _, latin := range []string{"Aleppo", "Government of Syria", "214808"} {
		if strings.Contains(facts, latin) {
			i := strings.Index(facts, latin)
			t.Errorf("the Arabic event page says %q: …%s…", latin, facts[max(0, i-200):min(len(facts), i+100)])
		}
	}
}

// TestPhotoEventLinkInArabic (issue 68, 8): on an Arabic photo page the
// event a photo documents is named in Arabic words and digits ("GED
// 214808" was left in Latin digits).
func TestPhotoEventLinkInArabic(t *testing.T) {
	e, id := withEvents(t, "Rebel fighters fire a mortar during clashes in Aleppo, Syria January 1, 2016. REUTERS/Abdalrhman Ismail", "mortar")
	ctx := context.Background()
	if _, err := e.A.SetEventLink(ctx, id, "ucdp-ged", "214808", photo.LinkConfirmed, "editor rana"); err != nil {
		t.Fatal(err)
	}
	link := httpapitest.GetPage(t, e.TS, "/photos/"+id+"?lang=ar").Text("event-link")
	if !strings.Contains(link, "٢١٤٨٠٨") || strings.Contains(link, "214808") {
		t.Errorf("the Arabic photo page names its event %q", link)
	}
	if link := httpapitest.GetPage(t, e.TS, "/photos/"+id+"?lang=en").Text("event-link"); !strings.Contains(link, "GED 214808") {
		t.Errorf("the English photo page names its event %q", link)
	}
}

package eventsapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/http/eventsapi"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
	"github.com/syriamap/syriamap/internal/http/httpapi/servertest"
)

// TestEditorsLinkEvents (issue 56, 3): an editor confirms a suggested
// event, rejects another, links a third by its id and undoes; each is a
// custody record; a confirmed GED link travels with the photo (GeoJSON,
// CSV, the event filter, the photo's and the event's pages, the bag's
// record), and its undoing takes it away everywhere.
func TestEditorsLinkEvents(t *testing.T) {
	e, id := withEvents(t, "Rebel fighters fire a mortar during clashes in Aleppo, Syria January 1, 2016. REUTERS/Abdalrhman Ismail", "mortar")
	ctx := context.Background()
	bearer := []string{"Authorization", "Bearer " + e.Token}
	link := func(method, event, body string) (int, eventsapi.PhotoEventsJSON) {
		t.Helper()
		res, b := httpapitest.Do(t, nil, method, e.TS.URL+"/api/photos/"+id+"/events/ucdp-ged/"+event, body, bearer...)
		var out eventsapi.PhotoEventsJSON
		json.Unmarshal([]byte(b), &out)
		return res.StatusCode, out
	}
	// A reader cannot link.
	if res, _ := httpapitest.Do(t, nil, "PUT", e.TS.URL+"/api/photos/"+id+"/events/ucdp-ged/214808", `{"decision":"confirmed"}`); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("a reader's link: %d, want 401", res.StatusCode)
	}
	status, out := link("PUT", "214808", `{"decision":"confirmed"}`)
	if status != http.StatusOK || len(out.Links) != 1 || out.Links[0].ID != "214808" || out.Links[0].Decision != "confirmed" ||
		out.Links[0].By != "editor rana" || !strings.Contains(out.Links[0].Why, "same city, same day") {
		t.Fatalf("confirm: %d %+v", status, out.Links)
	}
	for _, c := range out.Candidates {
		if c.ID == "214808" {
			t.Error("a confirmed event is still a candidate")
		}
	}
	// Rejected: stays a candidate, never likely.
	other := out.Candidates[0].ID
	if _, out = link("PUT", other, `{"decision":"rejected"}`); out.Candidates[0].ID != other && !rejected(out, other) {
		t.Errorf("rejected %s: %+v", other, out.Candidates)
	} else if !rejected(out, other) {
		t.Errorf("%s is not marked rejected, or still likely: %+v", other, out.Candidates)
	}
	// Bad decisions and unknown events are clear errors.
	for _, c := range []struct {
		event, body string
		want        int
	}{{"214808", `{"decision":"maybe"}`, 400}, {"214808", `{}`, 400}, {"999999999", `{"decision":"confirmed"}`, 404}} {
		if status, _ := link("PUT", c.event, c.body); status != c.want {
			t.Errorf("PUT %s %s: %d, want %d", c.event, c.body, status, c.want)
		}
	}
	linkTravels(t, e, id)
	// An editor's form links by id, and undoes.
	c, csrf := httpapitest.SignIn(t, e.TS.URL)
	res, _ := httpapitest.Do(t, c, "POST", e.TS.URL+"/photos/"+id+"/events", url.Values{"csrf": {csrf}, "event": {"ucdp-ged:214797"}, "decision": {"confirmed"}}.Encode(),
		"Content-Type", "application/x-www-form-urlencoded")
	if res.StatusCode != http.StatusSeeOther {
		t.Errorf("link by id: %d", res.StatusCode)
	}
	if _, body := httpapitest.Get(t, e.TS, "/api/photos/"+id+".geojson"); !strings.Contains(string(body), `"events":"ucdp-ged:214797 ucdp-ged:214808"`) {
		t.Errorf("two links: %s", body)
	}
	for _, ev := range []string{"214808", "214797"} {
		if status, _ := link("DELETE", ev, ""); status != http.StatusOK {
			t.Errorf("undo %s: %d", ev, status)
		}
	}
	if _, body := httpapitest.Get(t, e.TS, "/api/photos/"+id+".geojson"); !strings.Contains(string(body), `"events":null`) {
		t.Errorf("undone, the feature still has events: %s", body)
	}
	if _, body := httpapitest.Get(t, e.TS, "/api/photos.geojson?event=any"); len(httpapitest.Features(t, body).Features) != 0 {
		t.Error("undone, event=any still selects the photo")
	}
	recs, err := e.A.CustodyOf(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range recs {
		if r.Action == "event-link" {
			n++
		}
	}
	if n != 5 { // confirm, reject, link by id, two undos
		t.Errorf("%d event-link custody records, want 5", n)
	}
}

// linkTravels checks that photo id's confirmed link to GED 214808 goes
// where the photo goes: the event filter, the features' and the CSV's
// events, the photo's page (not its candidates, to a reader), the
// event's page in both languages, and the bag's record.
func linkTravels(t *testing.T, e *servertest.Server, id string) {
	t.Helper()
	_, body := httpapitest.Get(t, e.TS, "/api/photos.geojson?event=ucdp-ged:214808")
	fc := httpapitest.Features(t, body)
	if len(fc.Features) != 1 || fc.Features[0].Properties["events"] != "ucdp-ged:214808" {
		t.Errorf("the event filter, or the feature's events: %s", body)
	}
	if _, body := httpapitest.Get(t, e.TS, "/api/photos.geojson?event=any"); len(httpapitest.Features(t, body).Features) != 1 {
		t.Error("event=any")
	}
	if _, body := httpapitest.Get(t, e.TS, "/api/photos.geojson?event=ucdp-ged:1"); len(httpapitest.Features(t, body).Features) != 0 {
		t.Error("event=ucdp-ged:1 selects a photo not linked to it")
	}
	if res, body := httpapitest.Get(t, e.TS, "/api/photos.geojson?event=214808"); res.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), "dataset:id") {
		t.Errorf("a bare id as the filter: %d %s", res.StatusCode, body)
	}
	if _, body := httpapitest.Get(t, e.TS, "/api/photos.csv"); !strings.Contains(string(body), ",events,verified\n") || !strings.Contains(string(body), ",ucdp-ged:214808,false\n") {
		t.Errorf("the CSV has no events column or value:\n%s", body)
	}
	_, page := httpapitest.Get(t, e.TS, "/photos/"+id)
	if !strings.Contains(string(page), `data-testid="event-link"`) || !strings.Contains(string(page), "/events/ucdp-ged/214808") {
		t.Error("a reader's photo page does not list the confirmed event")
	}
	if strings.Contains(string(page), `data-testid="event-candidates"`) {
		t.Error("a reader is shown the candidates")
	}
	_, page = httpapitest.Get(t, e.TS, "/events/ucdp-ged/214808")
	if !strings.Contains(string(page), `data-testid="linked-photos"`) || !strings.Contains(string(page), "/photos/"+id) ||
		!strings.Contains(string(page), "the exact day") || !strings.Contains(string(page), "Sundberg") {
		t.Errorf("the event page does not list its photo, its precision and its citation")
	}
	if _, page := httpapitest.Get(t, e.TS, "/events/ucdp-ged/214808?lang=ar"); !strings.Contains(string(page), "اليوم بعينه") {
		t.Error("the Arabic event page does not say its precision in words")
	}
	// The bag's record carries the event's fields as read.
	var rec struct {
		Events []struct {
			Dataset, Version, ID, Decision string
			Event                          map[string]any
		} `json:"events"`
	}
	b := httpapitest.BagRecord(t, e.A, id)
	if err := json.Unmarshal(b, &rec); err != nil || len(rec.Events) != 1 || rec.Events[0].Event["headline"] == nil || rec.Events[0].Version != "19.1" {
		t.Errorf("the bag's record.json: %v %s", err, b)
	}
}

func rejected(out eventsapi.PhotoEventsJSON, id string) bool {
	for _, c := range out.Candidates {
		if c.ID == id {
			return c.Decision == "rejected" && !c.Likely
		}
	}
	return false
}

// TestEventLinkTakesIfMatch (issue 57, 4, for the events' writes): a
// link's write answers the photo's version as its ETag; sent back as
// If-Match after another write, it is refused (412) and nothing changes;
// the photo page's form, sending the version it showed, is answered with
// the page that says the photo changed.
func TestEventLinkTakesIfMatch(t *testing.T) {
	e, id := withEvents(t, "Rebel fighters fire a mortar during clashes in Aleppo, Syria January 1, 2016. REUTERS/Abdalrhman Ismail", "mortar")
	bearer := []string{"Authorization", "Bearer " + e.Token}
	link := e.TS.URL + "/api/photos/" + id + "/events/ucdp-ged/"
	res, _ := httpapitest.Do(t, nil, "GET", e.TS.URL+"/api/photos/"+id+".geojson", "", bearer...)
	seen := res.Header.Get("ETag")
	res, body := httpapitest.Do(t, nil, "PUT", link+"214808", `{"decision":"confirmed"}`, append([]string{"If-Match", seen}, bearer...)...)
	now := res.Header.Get("ETag")
	if res.StatusCode != http.StatusOK || now == "" || now == seen {
		t.Fatalf("a link at the version read: %d, ETag %q after %q: %s", res.StatusCode, now, seen, body)
	}
	res, body = httpapitest.Do(t, nil, "PUT", link+"214797", `{"decision":"rejected"}`, append([]string{"If-Match", seen}, bearer...)...)
	if res.StatusCode != http.StatusPreconditionFailed || !strings.Contains(body, "changed since you read it") {
		t.Errorf("a link over a stale version: %d %s", res.StatusCode, body)
	}
	if out := readEvents(t, e, id); rejected(out, "214797") {
		t.Error("the stale write was recorded")
	}
	c, csrf := httpapitest.SignIn(t, e.TS.URL)
	stale := strings.TrimSuffix(strings.TrimPrefix(seen, `"photo-`), `"`)
	form := url.Values{"csrf": {csrf}, "version": {stale}, "event": {"ucdp-ged:214797"}, "decision": {"rejected"}}
	res, page := httpapitest.Do(t, c, "POST", e.TS.URL+"/photos/"+id+"/events", form.Encode(), "Content-Type", "application/x-www-form-urlencoded", "Accept", "text/html")
	if res.StatusCode != http.StatusPreconditionFailed || !strings.Contains(page, `data-testid="keep-mine"`) {
		t.Errorf("a stale form: %d %.400s", res.StatusCode, page)
	}
}

// readEvents reads photo id's events as an editor.
func readEvents(t *testing.T, e *servertest.Server, id string) eventsapi.PhotoEventsJSON {
	t.Helper()
	var out eventsapi.PhotoEventsJSON
	_, body := httpapitest.Get(t, e.TS, "/api/photos/"+id+"/events", "Authorization", "Bearer "+e.Token)
	if err := json.Unmarshal(body, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

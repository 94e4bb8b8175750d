package review_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/http/httpapi"
)

// TestNoLostEdits (issue 57, 4): every write — a placement, a fix, a
// harm mark, an event link, a second look's request, a story, an added
// place — takes the ETag its client read as If-Match and answers 412,
// with what the thing is now, when it no longer matches; without
// If-Match (a script) or with * it goes through; a page's form sends the
// version it showed, and a stale one answers with a page that says who
// changed it and offers to keep the editor's change.
func TestNoLostEdits(t *testing.T) {
	e := newEditorServer(t, httpapi.Options{})
	ctx := context.Background()
	if _, _, err := e.a.ImportBundledEvents(ctx); err != nil {
		t.Fatal(err)
	}
	omar := []string{"Authorization", "Bearer " + tokenOf(t, e.a, "omar")}
	rana := []string{"Authorization", "Bearer " + e.token}
	id := e.photoID(t, "?place=ocha:C2320")
	photoURL := e.ts.URL + "/api/photos/" + id

	// Both read the photo: one version.
	res, _ := do(t, nil, "GET", photoURL+".geojson", "", rana...)
	seen := res.Header.Get("ETag")
	if !strings.HasPrefix(seen, `"photo-`) {
		t.Fatalf("the photo's ETag: %q", seen)
	}
	if res, _ := do(t, nil, "GET", photoURL+".geojson", "", append([]string{"If-None-Match", seen}, rana...)...); res.StatusCode != http.StatusNotModified {
		t.Errorf("GET with its own ETag: %s, want 304", res.Status)
	}
	// omar writes first; rana's write over what she read is refused.
	res, _ = do(t, nil, "PUT", photoURL+"/placement", `{"lon": 36.36, "lat": 33.53, "note": "omar's point"}`, append([]string{"If-Match", seen}, omar...)...)
	if res.StatusCode != 200 || res.Header.Get("ETag") == seen || res.Header.Get("ETag") == "" {
		t.Fatalf("omar's write: %s, ETag %q", res.Status, res.Header.Get("ETag"))
	}
	now := res.Header.Get("ETag")
	writes := []struct{ name, method, url, body string }{
		{"placement", "PUT", photoURL + "/placement", `{"confirm": true}`},
		{"details", "PUT", photoURL + "/details", `{"photographer": "R. Said"}`},
		{"harm", "PUT", photoURL + "/harm", `{"harm": "graphic", "reason": "a body"}`},
		{"event link", "PUT", photoURL + "/events/ucdp-ged/214808", `{"decision": "rejected"}`},
		{"second look", "POST", photoURL + "/second-look", ``},
	}
	for _, w := range writes {
		res, body := do(t, nil, w.method, w.url, w.body, append([]string{"If-Match", seen}, rana...)...)
		var out struct {
			Error   string
			Current struct {
				Version int64
				ETag    string
				By      string
			}
		}
		json.Unmarshal([]byte(body), &out)
		if res.StatusCode != http.StatusPreconditionFailed || out.Current.ETag != now || out.Current.By != "omar" || !strings.Contains(out.Error, "changed since you read it") {
			t.Errorf("%s over a stale version: %s %s", w.name, res.Status, body)
		}
	}
	e.unchangedSince(t, id, now)
	staleForm(t, e, id)
	writesGoThrough(t, e, id, rana)
	storiesAndPlaces(t, e, id, rana, omar)
}

// staleForm: a page's form sends the version it showed; stale, the
// answer is a page that says who changed it and offers to keep the
// editor's change, which then goes through.
func staleForm(t *testing.T, e *editorServer, id string) {
	ctx := context.Background()
	c, csrf := e.signIn(t)
	form := url.Values{"csrf": {csrf}, "version": {"1"}, "action": {"confirm"}, "note": {"rana's look"}, "shown_place_id": {"ocha:C2320"}}
	res, page := do(t, c, "POST", e.ts.URL+"/review/photos/"+id, form.Encode(), "Content-Type", "application/x-www-form-urlencoded", "Accept", "text/html")
	if res.StatusCode != http.StatusPreconditionFailed || !strings.Contains(page, "omar placed it elsewhere") || !strings.Contains(page, `data-testid="keep-mine"`) ||
		!strings.Contains(page, `name="note" value="rana&#39;s look"`) {
		t.Fatalf("a stale form: %s %.600s", res.Status, page)
	}
	// Keep mine: the same form at the version now — a confirmation of
	// what she saw, so a placement there.
	m := regexp.MustCompile(`data-testid="keep-mine"><input type="hidden" name="csrf" value="[^"]*">\s*<input type="hidden" name="version" value="(\d+)">`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("the stale page's form has no version")
	}
	if !strings.Contains(page, `name="action" value="place"`) || !strings.Contains(page, `name="place_id" value="ocha:C2320"`) {
		t.Errorf("keeping a stale confirmation does not place the photo where it was confirmed")
	}
	form.Set("version", m[1])
	form.Set("action", "place")
	form.Set("place_id", "ocha:C2320")
	if res, _ := do(t, c, "POST", e.ts.URL+"/review/photos/"+id, form.Encode(), "Content-Type", "application/x-www-form-urlencoded"); res.StatusCode != http.StatusSeeOther {
		t.Errorf("keeping mine: %s", res.Status)
	}
	if p, _ := e.a.Photo(ctx, id); p.Place.ID != "ocha:C2320" || p.ReviewedBy != "rana" {
		t.Errorf("after keeping mine: %s by %s at %s", p.Review, p.ReviewedBy, p.Place.ID)
	}
}

// writesGoThrough: with the version now, or *, or no If-Match at all,
// writes go through; a weak tag matches nothing.
func writesGoThrough(t *testing.T, e *editorServer, id string, rana []string) {
	photoURL := e.ts.URL + "/api/photos/" + id
	res, _ := do(t, nil, "GET", photoURL+".geojson", "", rana...)
	now := res.Header.Get("ETag")
	if res, body := do(t, nil, "PUT", photoURL+"/details", `{"photographer": "R. Said"}`, append([]string{"If-Match", now}, rana...)...); res.StatusCode != 200 {
		t.Errorf("a write at the version now: %s %s", res.Status, body)
	}
	if res, _ := do(t, nil, "PUT", photoURL+"/details", `{"agency": "Reuters"}`, append([]string{"If-Match", "*"}, rana...)...); res.StatusCode != 200 {
		t.Errorf("If-Match *: %s", res.Status)
	}
	if res, _ := do(t, nil, "PUT", photoURL+"/details", `{"agency": "AFP"}`, rana...); res.StatusCode != 200 {
		t.Errorf("a script's write without If-Match: %s", res.Status)
	}
	if res, _ := do(t, nil, "PUT", photoURL+"/details", `{"agency": "AP"}`, append([]string{"If-Match", `W/"photo-1"`}, rana...)...); res.StatusCode != http.StatusPreconditionFailed {
		t.Errorf("a weak ETag: %s, want 412", res.Status)
	}

}

// storiesAndPlaces: a story's and an added place's stale writes are
// refused as a photo's.
func storiesAndPlaces(t *testing.T, e *editorServer, id string, rana, omar []string) {
	// A story: its ETag from its JSON, a stale save refused.
	body := `{"slug": "one", "title": "One", "status": "draft", "steps": [{"heading": "A", "photos": [{"id": "` + id + `"}]}]}`
	asJSON := []string{"Content-Type", "application/json"}
	res, _ := do(t, nil, "POST", e.ts.URL+"/api/stories", body, append(asJSON, rana...)...)
	first := res.Header.Get("ETag")
	if res.StatusCode != http.StatusCreated || !strings.HasPrefix(first, `"story-`) {
		t.Fatalf("a new story: %s, ETag %q", res.Status, first)
	}
	if res, _ := do(t, nil, "GET", e.ts.URL+"/api/stories/one", "", rana...); res.Header.Get("ETag") != first {
		t.Errorf("the story's JSON: ETag %q, want %q", res.Header.Get("ETag"), first)
	}
	if res, _ := do(t, nil, "PUT", e.ts.URL+"/api/stories/one", strings.Replace(body, `"One"`, `"Omar's"`, 1), append([]string{"If-Match", first}, omar...)...); res.StatusCode != 200 {
		t.Fatalf("omar's save: %s", res.Status)
	}
	if res, out := do(t, nil, "PUT", e.ts.URL+"/api/stories/one", strings.Replace(body, `"One"`, `"Rana's"`, 1), append([]string{"If-Match", first}, rana...)...); res.StatusCode != http.StatusPreconditionFailed ||
		!strings.Contains(out, `"by":"omar"`) || !strings.Contains(out, `"changed":["title"]`) {
		t.Errorf("rana's stale save: %s %s", res.Status, out)
	}
	// An added place.
	res, _ = do(t, nil, "POST", e.ts.URL+"/api/places", `{"name": "Mahalej Shelter", "kind": "camp", "lon": 37.0589, "lat": 36.5857, "source": "https://example.org/p"}`,
		append(asJSON, rana...)...)
	placeTag := res.Header.Get("ETag")
	if res.StatusCode != http.StatusCreated || !strings.HasPrefix(placeTag, `"place-`) {
		t.Fatalf("a new place: %s, ETag %q", res.Status, placeTag)
	}
	place := e.ts.URL + "/api/places/arc:mahalej-shelter"
	if res, _ := do(t, nil, "PATCH", place, `{"lon": 37.06, "lat": 36.59, "reason": "omar's map"}`, append(append([]string{"If-Match", placeTag}, asJSON...), omar...)...); res.StatusCode != 200 {
		t.Fatalf("omar's move: %s", res.Status)
	}
	if res, out := do(t, nil, "DELETE", place, `{"reason": "rana's"}`, append(append([]string{"If-Match", placeTag}, asJSON...), rana...)...); res.StatusCode != http.StatusPreconditionFailed {
		t.Errorf("rana's stale removal: %s %s", res.Status, out)
	}
}

// unchangedSince fails the test if photo id is no longer at version tag.
func (e *editorServer) unchangedSince(t *testing.T, id, tag string) {
	t.Helper()
	if res, _ := do(t, nil, "GET", e.ts.URL+"/api/photos/"+id+".geojson", "", "Authorization", "Bearer "+e.token); res.Header.Get("ETag") != tag {
		t.Errorf("photo %s changed by refused writes: ETag %q, want %q", id, res.Header.Get("ETag"), tag)
	}
}

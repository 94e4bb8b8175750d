package httpapi

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// POST /api/places: an editor adds a place the gazetteer lacks, and the
// place search finds it at once; signed out it is refused (401), a bad
// body is a 400 with its field, and the review log shows who added it.
// TestAddPlaceAPIRefuses: signed out, 401; a place without a point, of a
// kind there is none of, without a name or with an id of its own, 400 or
// 422 naming the field.
func TestAddPlaceAPIRefuses(t *testing.T) {
	e := newEditorServer(t, Options{})
	body := `{"name": "Mahalej Shelter", "kind": "camp", "lon": 37.0589, "lat": 36.5857, "source": "https://example.org/the-page"}`
	asJSON := []string{"Content-Type", "application/json"}
	if resp, _ := do(t, nil, "POST", e.ts.URL+"/api/places", body, asJSON...); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("signed out: %s, want 401", resp.Status)
	}
	auth := append([]string{"Authorization", "Bearer " + e.token}, asJSON...)
	for bad, field := range map[string]string{
		`{"name": "X", "kind": "camp"}`:                                "lon",
		`{"name": "X", "kind": "tent", "lon": 37, "lat": 36}`:          "kind",
		`{"name": "", "kind": "camp", "lon": 37, "lat": 36}`:           "name",
		`{"name": "X", "kind": "camp", "lon": 37, "lat": 36, "id": 1}`: "id",
	} {
		resp, out := do(t, nil, "POST", e.ts.URL+"/api/places", bad, auth...)
		if resp.StatusCode != http.StatusBadRequest && resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(out, field) {
			t.Errorf("%s: %s %s, want 400 naming %q", bad, resp.Status, out, field)
		}
	}
}

func TestAddPlaceAPI(t *testing.T) {
	e := newEditorServer(t, Options{})
	body := `{"name": "Mahalej Shelter", "names": ["Al-Mahalej Shelter"], "kind": "camp", "lon": 37.0589, "lat": 36.5857,
		"source": "https://example.org/the-page"}`
	auth := []string{"Authorization", "Bearer " + e.token, "Content-Type", "application/json"}
	resp, out := do(t, nil, "POST", e.ts.URL+"/api/places", body, auth...)
	if resp.StatusCode != http.StatusCreated || resp.Header.Get("Location") != "/places/arc:mahalej-shelter" ||
		!strings.Contains(out, `"added_by":"rana"`) || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("add: %s %v %s", resp.Status, resp.Header, out)
	}
	_, out = do(t, nil, "GET", e.ts.URL+"/api/places/search?q="+url.QueryEscape("Al-Mahalej Shelter"), "")
	var found []struct{ ID string }
	if err := json.Unmarshal([]byte(out), &found); err != nil || len(found) == 0 || found[0].ID != "arc:mahalej-shelter" {
		t.Errorf("the search does not find the added place first: %s", out)
	}
	if p := e.a.Gazetteer().ByID("arc:mahalej-shelter"); p == nil || !p.Located {
		t.Error("the archive's gazetteer lacks the added place")
	}
	resp, page := do(t, nil, "GET", e.ts.URL+"/places/arc:mahalej-shelter", "")
	if resp.StatusCode != http.StatusOK || !strings.Contains(page, "Added to this archive") || !strings.Contains(page, "https://example.org/the-page") {
		t.Errorf("the place page: %s, without its provenance", resp.Status)
	}
	_, page = do(t, nil, "GET", e.ts.URL+"/review/log", "")
	if !strings.Contains(page, "/places/arc:mahalej-shelter") || !strings.Contains(page, "rana") {
		t.Error("the review log does not show the place added")
	}
	// Taken back: moved, removed (gone from the gazetteer and the search),
	// restored; each needs a reason, and a bundled place is not the
	// editors' to take back.
	if resp, out := do(t, nil, "PATCH", e.ts.URL+"/api/places/arc:mahalej-shelter", `{"lon": 37.06, "lat": 36.59}`, auth...); resp.StatusCode != http.StatusBadRequest || !strings.Contains(out, "reason") {
		t.Errorf("a move without a reason: %s %s", resp.Status, out)
	}
	if resp, out := do(t, nil, "PATCH", e.ts.URL+"/api/places/arc:mahalej-shelter", `{"lon": 37.06, "lat": 36.59, "reason": "the shelter's own map"}`, auth...); resp.StatusCode != http.StatusOK {
		t.Errorf("a move: %s %s", resp.Status, out)
	}
	if p := e.a.Gazetteer().ByID("arc:mahalej-shelter"); p == nil || p.Point[0] != 37.06 {
		t.Errorf("moved, the place is at %v", p)
	}
	if resp, out := do(t, nil, "DELETE", e.ts.URL+"/api/places/arc:mahalej-shelter", `{"reason": "a duplicate"}`, auth...); resp.StatusCode != http.StatusOK || !strings.Contains(out, "photos_moved") {
		t.Errorf("a removal: %s %s", resp.Status, out)
	}
	if e.a.Gazetteer().ByID("arc:mahalej-shelter") != nil {
		t.Error("removed, the place is still in the archive's gazetteer")
	}
	if resp, out := do(t, nil, "POST", e.ts.URL+"/api/places/arc:mahalej-shelter/restore", `{"reason": "not a duplicate"}`, auth...); resp.StatusCode != http.StatusOK || e.a.Gazetteer().ByID("arc:mahalej-shelter") == nil {
		t.Errorf("a restore: %s %s", resp.Status, out)
	}
	if resp, _ := do(t, nil, "DELETE", e.ts.URL+"/api/places/ocha:C2320", `{"reason": "x"}`, auth...); resp.StatusCode != http.StatusNotFound && resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("removing a bundled place: %s", resp.Status)
	}
}

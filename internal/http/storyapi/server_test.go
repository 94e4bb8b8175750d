package storyapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/http/httpapi"
	"github.com/syriamap/syriamap/internal/photo"
)

// TestStoriesAPI writes a story as an editor, reads it as a reader, and
// checks what a reader may not do or see.
func TestStoriesAPI(t *testing.T) {
	e := newEditorServer(t, httpapi.Options{})
	c, csrf := e.signIn(t)
	a, b := e.photoID(t, "?place=ocha:C2320"), e.photoID(t, "?q=Aleppo")
	body := `{"title": "Idlib and Aleppo, 2016", "summary": "Two cities in **2016**, <em>unsafe</em>", "status": "draft", "steps": [
		{"heading": "Kafr Nabl", "text": "The **market** <script>alert(1)</script> [x](javascript:alert(1))", "photos": [{"id": "` + a + `"}], "highlight": "` + a + `"},
		{"heading": "Aleppo in March", "state": "http://elsewhere.example/?from=2016-03&to=2016-03&map=12/36.2/37.16&evil=1"},
		{"heading": "Both", "photos": [{"id": "` + a + `"}, {"id": "` + b + `"}]}]}`
	post := func(c *http.Client, method, path, body string, header ...string) (*http.Response, string) {
		return do(t, c, method, e.ts.URL+path, body, append([]string{"Content-Type", "application/json"}, header...)...)
	}
	// Readers and requests without the session's token change nothing.
	if resp, _ := post(nil, "POST", "/api/stories", body); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("a reader's POST: %s", resp.Status)
	}
	if resp, _ := post(c, "POST", "/api/stories", body); resp.StatusCode != http.StatusForbidden {
		t.Errorf("a POST without the CSRF token: %s", resp.Status)
	}
	resp, out := post(c, "POST", "/api/stories", body, "X-CSRF-Token", csrf)
	if resp.StatusCode != http.StatusCreated || !strings.Contains(out, `"slug":"idlib-and-aleppo-2016"`) {
		t.Fatalf("create: %s %s", resp.Status, out)
	}
	checkDraftIsHidden(t, e)
	checkBadStoriesRefused(t, post, c, csrf)
	// Published.
	resp, out = post(c, "PUT", "/api/stories/idlib-and-aleppo-2016", strings.Replace(body, `"draft"`, `"published"`, 1), "X-CSRF-Token", csrf)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("publish: %s %s", resp.Status, out)
	}
	_, js := do(t, nil, "GET", e.ts.URL+"/api/stories/idlib-and-aleppo-2016", "")
	var st struct {
		Author string `json:"author"`
		Steps  []struct {
			State  string `json:"state"`
			Photos []struct{ ID, Caption string }
		} `json:"steps"`
	}
	if err := json.Unmarshal([]byte(js), &st); err != nil {
		t.Fatal(err)
	}
	if st.Author != "rana" || len(st.Steps) != 3 || st.Steps[1].State != "from=2016-03&map=12/36.2/37.16&to=2016-03" || st.Steps[0].Photos[0].Caption == "" {
		t.Errorf("the story as read: %s", js)
	}
	// The GeoJSON: the photos with their step and order.
	_, gj := do(t, nil, "GET", e.ts.URL+"/api/stories/idlib-and-aleppo-2016.geojson", "")
	fc := features(t, []byte(gj))
	if len(fc.Features) != 3 || fc.Features[2].Properties["step"] != float64(3) || fc.Features[2].Properties["order"] != float64(3) ||
		fc.Features[0].Properties["place_name"] == nil {
		t.Errorf("the story's GeoJSON: %s", gj)
	}
	checkStoryPages(t, e)
	// A photo corrected since: the story shows its corrected place, and
	// who corrected it.
	if resp, out := do(t, nil, "PUT", e.ts.URL+"/api/photos/"+a+"/placement", `{"place_id": "gn:169897", "note": "the banner names Idlib"}`,
		"Authorization", "Bearer "+e.token); resp.StatusCode != http.StatusOK {
		t.Fatalf("correcting: %s %s", resp.Status, out)
	}
	_, page := do(t, nil, "GET", e.ts.URL+"/stories/idlib-and-aleppo-2016", "")
	if !strings.Contains(page, "corrected by rana") {
		t.Error("the story does not show the photo's correction")
	}
	// The history: created, then published, by rana.
	_, h := do(t, c, "GET", e.ts.URL+"/api/stories/idlib-and-aleppo-2016/history", "")
	if !strings.Contains(h, `"action":"created"`) || !strings.Contains(h, `"action":"published"`) {
		t.Errorf("history: %s", h)
	}
	if resp, _ := do(t, nil, "GET", e.ts.URL+"/api/stories/idlib-and-aleppo-2016/history", ""); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("a reader reads the history: %s", resp.Status)
	}
	// A photo gone from the archive since it was chosen leaves a gap with
	// its caption, in the page and in the GeoJSON.
	gone := `{"title": "Gaps", "status": "published", "steps": [{"heading": "One", "photos": [{"id": "` + a + `"}, {"id": "gone-1", "caption": "Smoke over Raqqa, 2017."}]}]}`
	if resp, out := post(c, "POST", "/api/stories", gone, "X-CSRF-Token", csrf); resp.StatusCode != http.StatusCreated {
		t.Fatalf("a story with a photo gone: %s %s", resp.Status, out)
	}
	_, page = do(t, nil, "GET", e.ts.URL+"/stories/gaps", "")
	if !strings.Contains(page, `data-testid="story-gap"`) || !strings.Contains(page, "Smoke over Raqqa, 2017.") {
		t.Error("a photo no longer in the archive left no visible gap")
	}
	_, gj = do(t, nil, "GET", e.ts.URL+"/api/stories/gaps.geojson", "")
	if !strings.Contains(gj, `"missing":true`) || !strings.Contains(gj, "Smoke over Raqqa") {
		t.Errorf("the GeoJSON of a story with a gap: %s", gj)
	}
}

// checkStoryPages: the published story's page renders its text inert
// and shows where its places came from; its summary's Markdown is
// rendered, on the story and in the list, and inert (issue 41, defect 16).
func checkStoryPages(t *testing.T, e *editorServer) {
	t.Helper()
	_, page := do(t, nil, "GET", e.ts.URL+"/stories/idlib-and-aleppo-2016", "")
	if strings.Contains(page, "<script>alert") || strings.Contains(page, `href="javascript:`) || !strings.Contains(page, "<strong>market</strong>") ||
		!strings.Contains(page, "Place read from") || strings.Count(page, `data-testid="story-step"`) != 3 {
		t.Errorf("the reader's page renders the story wrongly")
	}
	_, list := do(t, nil, "GET", e.ts.URL+"/stories", "")
	for name, html := range map[string]string{"story": page, "list": list} {
		if !strings.Contains(html, "<strong>2016</strong>") || strings.Contains(html, "**2016**") || strings.Contains(html, "<em>unsafe</em>") {
			t.Errorf("the %s page's summary is not rendered Markdown", name)
		}
	}
}

// checkDraftIsHidden: a draft is not there for readers, in a page, the
// API or the list.
func checkDraftIsHidden(t *testing.T, e *editorServer) {
	t.Helper()
	for _, path := range []string{"/stories/idlib-and-aleppo-2016", "/api/stories/idlib-and-aleppo-2016", "/api/stories/idlib-and-aleppo-2016.geojson"} {
		if resp, _ := do(t, nil, "GET", e.ts.URL+path, ""); resp.StatusCode != http.StatusNotFound {
			t.Errorf("a reader's GET %s of a draft: %s", path, resp.Status)
		}
	}
	if _, list := do(t, nil, "GET", e.ts.URL+"/api/stories", ""); strings.Contains(list, "idlib") {
		t.Errorf("a reader's list shows a draft: %s", list)
	}
}

// checkBadStoriesRefused: bad stories get clear errors naming the field;
// one larger than the limit says the limit, not "unexpected EOF"; an
// Arabic-only title gets an address of its own.
func checkBadStoriesRefused(t *testing.T, post func(c *http.Client, method, path, body string, header ...string) (*http.Response, string), c *http.Client, csrf string) {
	t.Helper()
	for _, c2 := range []struct{ body, want string }{
		{`{"title": "", "status": "draft", "steps": []}`, "title"},
		{`{"title": "x", "status": "draft", "steps": [{"heading": "h", "photos": [{"id": "no-such-photo"}]}]}`, "no photo"},
		{`{"title": "x", "status": "live", "steps": []}`, "status"},
		{`{"title": "x", "status": "draft", "steps": [], "extra": 1}`, "extra"},
	} {
		resp, out := post(c, "POST", "/api/stories", c2.body, "X-CSRF-Token", csrf)
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(out, c2.want) {
			t.Errorf("%s: %s %s; want 400 naming %q", c2.body, resp.Status, out, c2.want)
		}
	}
	// A story larger than the limit is refused saying the limit, not
	// "unexpected EOF"; so is an Arabic-only title given its own address.
	huge := `{"title": "x", "status": "draft", "steps": [{"heading": "h", "text": "` + strings.Repeat("word ", 1<<20) + `"}]}`
	if resp, out := post(c, "POST", "/api/stories", huge, "X-CSRF-Token", csrf); resp.StatusCode/100 != 4 || !strings.Contains(out, "larger than 4 MB") {
		t.Errorf("a 5 MB story: %s %s", resp.Status, out)
	}
	if resp, out := post(c, "POST", "/api/stories", `{"title": "حصار حلب", "status": "draft", "steps": []}`, "X-CSRF-Token", csrf); resp.StatusCode != http.StatusCreated ||
		!strings.Contains(out, `"slug":"hsar-hlb"`) {
		t.Errorf("an Arabic title: %s %s", resp.Status, out)
	}
}

// TestStoryRefusesWithheldPhotos (issue 54, 7): a withheld photo put in a
// story is refused with a word that says it is withheld and what to do —
// not "no photo in the archive".
func TestStoryRefusesWithheldPhotos(t *testing.T) {
	e := newEditorServer(t, httpapi.Options{})
	c, csrf := e.signIn(t)
	id := e.photoID(t, "?place=ocha:C2320")
	if _, err := e.a.SetHarm(context.Background(), id, photo.HarmWithheld, "rana", "the people in it"); err != nil {
		t.Fatal(err)
	}
	body := `{"title": "Withheld", "status": "draft", "steps": [{"heading": "One", "photos": [{"id": "` + id + `"}]}]}`
	resp, out := do(t, c, "POST", e.ts.URL+"/api/stories", body, "Content-Type", "application/json", "X-CSRF-Token", csrf)
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(out, "is withheld") || strings.Contains(out, "in the archive") {
		t.Errorf("a story with a withheld photo: %s %s", resp.Status, out)
	}
}

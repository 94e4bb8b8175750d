package storyapi

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gorilla/mux"

	"github.com/syriamap/syriamap/geodata"
	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/auth"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/http/pagemodel"
	"github.com/syriamap/syriamap/internal/http/session"
	"github.com/syriamap/syriamap/internal/http/sitepage"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/store"
	"github.com/syriamap/syriamap/internal/story"
)

// env is the stories' API over an archive of three photos, one of them
// withheld, with an editor's bearer token.
type env struct {
	ts                *httptest.Server
	db                *store.DB
	token             string
	shown, other, hid string
}

func newEnv(t *testing.T) *env {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "a.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	g, err := gazetteer.Load(geodata.Gazetteer)
	if err != nil {
		t.Fatal(err)
	}
	a := archive.New(db, g)
	var recs []store.Record
	for i, c := range []string{"Boys play in Aleppo, Syria, July 12, 2016.", "A market in Damascus, Syria, August 1, 2016.", "A family in Douma, Syria, May 2, 2017."} {
		recs = append(recs, store.Record{Photo: &photo.Photo{ID: photo.ID(c), Caption: c}, Line: i + 1})
	}
	if _, err := db.ImportFile(ctx, "test.txt", store.Records(recs), nil); err != nil {
		t.Fatal(err)
	}
	e := &env{db: db, token: "a-token-for-rana", shown: recs[0].Photo.ID, other: recs[1].Photo.ID, hid: recs[2].Photo.ID}
	if _, err := db.SetHarm(ctx, e.hid, photo.HarmWithheld, "rana", "a test"); err != nil {
		t.Fatal(err)
	}
	hash, _ := auth.HashPassword("a long pass phrase")
	if err := db.AddUser(ctx, "rana", hash); err != nil {
		t.Fatal(err)
	}
	if err := db.AddToken(ctx, "rana", "test", auth.HashSecret(e.token)); err != nil {
		t.Fatal(err)
	}
	r := mux.NewRouter()
	log := slog.New(slog.DiscardHandler)
	kit := sitepage.New(r, log)
	guard := session.New(db, false, kit.Error)
	kit.Guard = guard
	nop := func(http.ResponseWriter, *http.Request) {}
	for name, path := range map[string]string{"explorer": "/", "review": "/review", "about": "/about", "asset": "/assets/{file}", "signin": "/signin",
		"signout": "/signout", "photo.geojson": "/api/photos/{id}.geojson", "basemap": "/basemap.geojson", "labels": "/api/labels", "clusters": "/api/clusters"} {
		r.HandleFunc(path, nop).Name(name)
	}
	api := &API{Kit: kit, DB: a, Guard: guard, Base: func(*http.Request) string { return "" },
		PageURLs: func() pagemodel.URLs { return pagemodel.URLs{} },
		Feature: func(b []byte, _ string, p *photo.Photo) []byte {
			out, _ := json.Marshal(map[string]string{"id": p.ID})
			return append(b, out...)
		}}
	get := func(name, path string, h http.HandlerFunc) { r.Handle(path, h).Methods(http.MethodGet).Name(name) }
	api.Routes(r, get, func(name, path string, h http.HandlerFunc) { get(name, path, guard.Viewing(h)) })
	e.ts = httptest.NewServer(r)
	t.Cleanup(e.ts.Close)
	return e
}

func (e *env) do(t *testing.T, method, path, body string, editor bool) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, e.ts.URL+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if editor {
		req.Header.Set("Authorization", "Bearer "+e.token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// TestStoriesAsReadersAndEditorsSeeThem: a draft is an editor's (a
// reader's list leaves it out, its address is 404), a published story is
// everyone's, and what a reader reads of it leaves out the withheld photo
// an editor put in it before it was withheld.
func TestStoriesAsReadersAndEditorsSeeThem(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	draft := story.Story{Slug: "notes", Title: "Notes", Status: story.Draft, Steps: []story.Step{{Heading: "One", Photos: []story.PhotoRef{{ID: e.shown}}}}}
	walk := story.Story{Slug: "walk", Title: "A walk", Status: story.Published, Steps: []story.Step{{Heading: "One",
		Photos: []story.PhotoRef{{ID: e.shown, Caption: "Boys play"}, {ID: e.hid, Caption: "A family in Douma"}}}}}
	for _, st := range []story.Story{draft, walk} {
		if _, err := e.db.SaveStory(ctx, st, "", "rana", ""); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		path   string
		editor bool
		status int
		has    []string
		hasNot []string
	}{
		{"/api/stories", false, 200, []string{`"walk"`}, []string{`"notes"`}},
		{"/api/stories", true, 200, []string{`"walk"`, `"notes"`}, nil},
		{"/api/stories/notes", false, 404, nil, []string{"Notes"}},
		{"/api/stories/notes", true, 200, []string{`"Notes"`}, nil},
		{"/api/stories/walk", false, 200, []string{e.shown}, []string{e.hid, "Douma"}},
		{"/api/stories/walk", true, 200, []string{e.shown, e.hid}, nil},
		{"/api/stories/walk/history", false, 401, nil, nil},
		{"/stories", false, 200, []string{"A walk"}, []string{"Notes"}},
	} {
		status, body := e.do(t, "GET", c.path, "", c.editor)
		if status != c.status {
			t.Errorf("%s (editor %v): %d, want %d: %.200s", c.path, c.editor, status, c.status, body)
		}
		for _, s := range c.has {
			if !strings.Contains(body, s) {
				t.Errorf("%s (editor %v) lacks %q", c.path, c.editor, s)
			}
		}
		for _, s := range c.hasNot {
			if strings.Contains(body, s) {
				t.Errorf("%s (editor %v) holds %q", c.path, c.editor, s)
			}
		}
	}
}

// TestSaveStoryChecksItsPhotos: a saved story's photos must be in the
// archive and public (a withheld photo is refused, naming the step); the
// captions kept are the archive's; a reader cannot save.
func TestSaveStoryChecksItsPhotos(t *testing.T) {
	e := newEnv(t)
	with := func(id string) string {
		return `{"title": "A walk", "status": "draft", "steps": [{"heading": "One", "photos": [{"id": "` + id + `"}]}]}`
	}
	if status, _ := e.do(t, "POST", "/api/stories", with(e.shown), false); status != http.StatusUnauthorized {
		t.Errorf("a reader's save: %d, want 401", status)
	}
	status, body := e.do(t, "POST", "/api/stories", with(e.hid), true)
	if status != http.StatusBadRequest || !strings.Contains(body, "withheld") || !strings.Contains(body, "steps[1].photos") {
		t.Errorf("a withheld photo: %d %s, want 400 saying so", status, body)
	}
	if status, body := e.do(t, "POST", "/api/stories", with("no-such-photo"), true); status != http.StatusBadRequest || !strings.Contains(body, "no photo") {
		t.Errorf("a photo not in the archive: %d %s", status, body)
	}
	status, body = e.do(t, "POST", "/api/stories", with(e.other), true)
	if status != http.StatusCreated || !strings.Contains(body, "A market in Damascus") {
		t.Errorf("a story: %d %s, want 201 with the photo's caption", status, body)
	}
}

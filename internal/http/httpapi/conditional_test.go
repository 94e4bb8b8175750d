package httpapi

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/assets"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/story"
)

// notConditional are the read routes that answer no 304, each with why.
var notConditional = map[string]string{
	"/healthz":          "a probe: it must do its work every time",
	"/metrics":          "counters: a probe too",
	"/api/imports/{id}": "an upload's import as it runs: never kept (no-store)",
}

// TestEveryReadRouteAnswers304 walks the router: every read route sends
// an ETag, answers a request that has it with 304 and no body, lets a
// shared cache keep a reader's answer, and never an editor's.
func TestEveryReadRouteAnswers304(t *testing.T) {
	a, photos := imageArchive(t)
	token := addEditor(t, a)
	ts, s := serveArchive(t, a, Options{Media: photos, ServeOriginals: true, Uploads: t.TempDir()})
	_, body := get(t, ts, "/api/photos.geojson")
	fc := features(t, body)
	id := fc.Features[0].ID.(string)
	sha := regexp.MustCompile(`/images/([0-9a-f]{64})/320\.jpg`).FindSubmatch(body)
	if sha == nil {
		t.Fatal("no photo of the test archive has an imported image")
	}
	st := story.Story{Slug: "a-story", Title: "A story", Status: story.Published, Steps: []story.Step{{
		Heading: "One", Photos: []story.PhotoRef{{ID: id, Caption: "one"}}}}}
	if _, err := a.SaveStory(context.Background(), st, "", "rana", ""); err != nil {
		t.Fatal(err)
	}
	if _, _, err := a.ImportBundledEvents(context.Background()); err != nil {
		t.Fatal(err)
	}
	place := fc.Features[0].Properties["place_id"].(string)
	// A second look (1) that two editors answered differently.
	ctx := context.Background()
	if err := a.SetTwoPerson(ctx, true, "rana"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Apply(ctx, []string{id}, photo.Change{Confirm: true, Author: "sami"}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.AnswerSecondLook(ctx, 1, "omar", "", nil, true, ""); err != nil {
		t.Fatal(err)
	}
	sample := map[string]string{"id": id, "collection": "photos", "z": "7", "x": "78", "y": "50",
		"file": assets.Name("app.js"), "path": "orient-6.jpg", "sha": string(sha[1]), "slug": "a-story", "dataset": "ucdp-ged", "event": "214808", "look": "1"}
	// What some routes need asked.
	queries := map[string]string{"/api/clusters": "?zoom=7&bbox=35,32,42,37", "/api/labels": "?zoom=7&bbox=35,32,42,37",
		"/api/places/search": "?q=aleppo", "/places/{id}": ""}
	reads := 0
	for _, r := range routesOf(t, s, sample) {
		if r.template == "/places/{id}" {
			r.path = s.URL("place", "id", place)
		}
		if !slices.Contains(r.methods, http.MethodGet) || notConditional[r.template] != "" {
			continue
		}
		reads++
		for _, who := range []struct {
			name   string
			header []string
		}{{"reader", nil}, {"editor", []string{"Authorization", "Bearer " + token}}} {
			res, body := get(t, ts, r.path+queries[r.template], who.header...)
			if res.StatusCode == http.StatusUnauthorized && who.name == "reader" {
				continue // an editor's route
			}
			if res.StatusCode != http.StatusOK {
				t.Errorf("GET %s (%s): %s %.200s", r.template, who.name, res.Status, body)
				continue
			}
			tag, cc := res.Header.Get("ETag"), res.Header.Get("Cache-Control")
			if tag == "" {
				t.Errorf("GET %s (%s): no ETag", r.template, who.name)
				continue
			}
			shared := strings.Contains(cc, "public") || strings.Contains(cc, "s-maxage")
			if who.name == "editor" && (shared || !strings.Contains(cc, "private")) {
				t.Errorf("GET %s as an editor: Cache-Control %q lets a shared cache keep it", r.template, cc)
			}
			if who.name == "reader" && !shared && !strings.Contains(cc, "immutable") {
				t.Errorf("GET %s as a reader: Cache-Control %q keeps no shared copy", r.template, cc)
			}
			res, again := get(t, ts, r.path+queries[r.template], append([]string{"If-None-Match", tag}, who.header...)...)
			if res.StatusCode != http.StatusNotModified || len(again) != 0 {
				t.Errorf("GET %s (%s) with If-None-Match %s: %s, %d bytes", r.template, who.name, tag, res.Status, len(again))
			}
		}
	}
	if reads < 40 {
		t.Errorf("%d read routes walked", reads)
	}
}

// TestResponseCache: a window asked again, in another spelling, is
// answered from the cache with the same bytes and headers, in either
// encoding; an archive change is seen at once; an editor's answers are
// neither served from it nor kept.
func TestResponseCache(t *testing.T) {
	s, ts, a := newTestServer(t)
	query := "/api/photos.geojson?from=2016-01&to=2016-12"
	spelled := "/api/photos.geojson?to=2016-12-31&from=2016-01-01&bbox="
	for _, enc := range []string{"gzip", "identity"} {
		before := s.CacheStats()
		get(t, ts, query, "Accept-Encoding", enc) // asked once: not kept
		first, body1 := get(t, ts, query, "Accept-Encoding", enc)
		second, body2 := get(t, ts, spelled, "Accept-Encoding", enc)
		after := s.CacheStats()
		if after.Hits != before.Hits+1 || after.Entries != before.Entries+1 {
			t.Errorf("%s: %d hits and %d answers kept for a window asked three times, want 1 and 1", enc, after.Hits-before.Hits, after.Entries-before.Entries)
		}
		if !bytes.Equal(body1, body2) || len(features(t, body1).Features) == 0 {
			t.Errorf("%s: the kept answer differs (%d and %d bytes)", enc, len(body1), len(body2))
		}
		for _, h := range []string{"Content-Type", "Content-Encoding", "ETag", "Cache-Control"} {
			if first.Header.Get(h) != second.Header.Get(h) {
				t.Errorf("%s: %s %q, then %q from the cache", enc, h, first.Header.Get(h), second.Header.Get(h))
			}
		}
		if (first.Header.Get("Content-Encoding") == "gzip") != (enc == "gzip") {
			t.Errorf("asked for %s, answered in %q", enc, first.Header.Get("Content-Encoding"))
		}
	}
	// A change to the archive: the window has one photo fewer at once.
	_, body := get(t, ts, query)
	n := len(features(t, body).Features)
	id := features(t, body).Features[0].ID.(string)
	if _, err := a.SetHarm(context.Background(), id, photo.HarmWithheld, "editor rana", "a test"); err != nil {
		t.Fatal(err)
	}
	if _, body := get(t, ts, spelled); len(features(t, body).Features) != n-1 {
		t.Errorf("after withholding a photo the window has %d photos, want %d", len(features(t, body).Features), n-1)
	}
	// A story saved (no photo changed) is seen at once too.
	ctx := context.Background()
	st := story.Story{Slug: "cached", Title: "Before", Status: story.Published, Steps: []story.Step{{Heading: "One"}}}
	if _, err := a.SaveStory(ctx, st, "", "rana", ""); err != nil {
		t.Fatal(err)
	}
	_, page := get(t, ts, "/stories/cached")
	st.Title = "After"
	if _, err := a.SaveStory(ctx, st, "cached", "rana", ""); err != nil {
		t.Fatal(err)
	}
	if _, again := get(t, ts, "/stories/cached"); !bytes.Contains(page, []byte("Before")) || !bytes.Contains(again, []byte("After")) {
		t.Errorf("a story retitled is still served as it was")
	}
	// An editor's answers are not the cache's.
	token := addEditor(t, a)
	before := s.CacheStats()
	for range 2 {
		get(t, ts, "/api/facets?from=2016", "Authorization", "Bearer "+token)
	}
	if after := s.CacheStats(); after.Hits != before.Hits || after.Entries != before.Entries {
		t.Errorf("an editor's answers: %+v, then %+v", before, after)
	}
	// The counters are the monitoring's.
	_, metrics := get(t, ts, "/metrics")
	if want := fmt.Sprintf("\nsyriamap_response_cache_hits_total %d\n", s.CacheStats().Hits); !strings.Contains(string(metrics), want) {
		t.Errorf("/metrics lacks %q:\n%s", want, metrics)
	}
}

// BenchmarkCacheHit is a repeated window answered from the response
// cache, through the whole handler stack (no network): what a hit costs
// the server.
func BenchmarkCacheHit(b *testing.B) {
	s, _, _ := newTestServer(b)
	h := s.Handler()
	req := httptest.NewRequest("GET", "/api/photos.geojson?from=2016-01&to=2016-12&bbox=35,32,43,38", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	h.ServeHTTP(httptest.NewRecorder(), req)
	before := s.CacheStats().Hits
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			b.Fatal(w.Code)
		}
	}
	if s.CacheStats().Hits == before {
		b.Fatal("no hit")
	}
}

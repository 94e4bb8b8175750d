package browsertest

import (
	"context"
	"encoding/json"
	"github.com/syriamap/syriamap/internal/http/httpapi"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/syriamap/syriamap/internal/http/publish"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/story"
)

// hostile is text an editor (or an imported file) may put in the
// archive: markup that, parsed as HTML anywhere, makes an element with a
// data-hostile attribute, asks a server elsewhere for an image and runs
// script.
const hostile = `<img data-hostile src="https://beacon.invalid/b.png" onerror="window.__pwned=1"><script data-hostile>window.__pwned=2</script><b data-hostile>x</b>`

// TestBrowserNoMarkupFromData walks every page that shows a place's
// name, a caption, a credit or a story — live as a reader and as an
// editor, and published — with each of those made of markup, and finds
// no element made from it, no script run and no request off the server
// (issue 52, fault 1: an added place's name was a live <img> and
// <script> in the map's tooltips on three pages).
func TestBrowserNoMarkupFromData(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	e := newEditorServer(t, httpapi.Options{})
	ctx := context.Background()
	aleppo := e.a.Gazetteer().ByID("gn:170063")
	kept, err := e.a.AddPlaces(ctx, []photo.AddedPlace{{Name: "Camp " + hostile, Kind: "camp", Lon: 37.2, Lat: 36.25, Parent: aleppo.ID}}, "rana")
	if err != nil {
		t.Fatal(err)
	}
	line, _ := json.Marshal(map[string]string{
		"caption":      "Men walk through rubble " + hostile + " in Aleppo, Syria, December 13, 2016.",
		"photographer": "A. Person " + hostile, "agency": "Agency " + hostile,
		"image_url": "https://beacon.invalid/photo.jpg",
	})
	file := filepath.Join(t.TempDir(), "hostile.jsonl")
	os.WriteFile(file, append(line, '\n'), 0o644)
	if _, err := e.a.ImportFile(ctx, file, "", nil); err != nil {
		t.Fatal(err)
	}
	id := e.photoID(t, "?q=rubble")
	at, err := e.a.PlaceOf(kept[0].ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.a.Apply(ctx, []string{id}, photo.Change{Place: &at, Author: "rana", Note: "note " + hostile}); err != nil {
		t.Fatal(err)
	}
	st := story.Story{Slug: "hostile", Title: "Story " + hostile, Summary: "Summary " + hostile, Status: story.Published, Steps: []story.Step{
		{Heading: "Step " + hostile, Text: "Text " + hostile, Photos: []story.PhotoRef{{ID: id}}, Highlight: id},
	}}
	if err := st.Validate(); err != nil {
		t.Fatal(err)
	}
	if _, err := e.a.SaveStory(ctx, st, "", "rana", ""); err != nil {
		t.Fatal(err)
	}

	b := newBrowser(t, e.ts, 1440, 900)
	walk := func(b *browser, base string, pages []string) {
		t.Helper()
		for _, path := range pages {
			var made int
			var pwned any
			b.run(t, chromedp.Navigate(base+path), chromedp.WaitReady(`body`, chromedp.ByQuery),
				settled(), // the map's tooltips and the lists are drawn
				eval(`document.querySelectorAll("[data-hostile]").length`, &made), eval(`window.__pwned ?? null`, &pwned))
			if made != 0 || pwned != nil {
				t.Errorf("%s: %d elements made from the archive's text, script ran: %v", path, made, pwned)
			}
		}
	}
	place := "/places/" + kept[0].ID
	walk(b, e.ts.URL, []string{"/", "/?q=rubble", "/photos/" + id, place, "/stories", "/stories/hostile", "/about",
		"/ogc/collections/photos/items?f=html&limit=20", "/ogc/collections/photos/items/" + id + "?f=html"})
	// The map's tooltip on the place and photo pages holds the name as text.
	var tip string
	b.run(t, chromedp.Navigate(e.ts.URL+place), chromedp.WaitVisible(`.leaflet-tooltip`, chromedp.ByQuery), chromedp.Text(`.leaflet-tooltip`, &tip, chromedp.ByQuery))
	if !strings.Contains(tip, "<img data-hostile") {
		t.Errorf("the place page's tooltip reads %q, want the name as typed", tip)
	}
	signIn(t, b, e)
	walk(b, e.ts.URL, []string{"/review", "/review/photos/" + id, "/review/log", "/stories/hostile/edit"})
	b.check(t)

	dir := t.TempDir()
	if _, err := publish.Publish(ctx, e.a, dir, publish.Options{IncludeUnplaced: true}); err != nil {
		t.Fatal(err)
	}
	static := httptest.NewServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(static.Close)
	pb := newBrowser(t, static, 1440, 900)
	walk(pb, static.URL, []string{"/index.html", "/index.html?q=rubble", "/photo.html?id=" + id, "/places/" + kept[0].ID + ".html",
		"/stories.html", "/stories/hostile.html", "/about.html"})
	pb.check(t)
}

package browsertest

import (
	"context"
	"github.com/syriamap/syriamap/internal/http/httpapi"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/syriamap/syriamap/internal/http/publish"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/story"
)

// TestBrowserPublished runs the explorer of a published site (syriamap
// publish) served by a plain static file server under a sub-path — Go's
// http.FileServer, with range requests and no syriamap code — and checks
// what a reader does against the live server over the same archive: the
// counts of the map, the timeline's brush and play, the filters, the
// search, a permalink's round trip, the downloads, a photo's page.
func TestBrowserPublished(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	_, live, a := newTestServer(t)
	dir := t.TempDir()
	if _, err := publish.Publish(context.Background(), a, dir, publish.Options{IncludeUnplaced: true}); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/syria/", http.StripPrefix("/syria/", http.FileServer(http.Dir(dir))))
	static := httptest.NewServer(mux)
	t.Cleanup(static.Close)
	site := static.URL + "/syria/"
	b := newBrowser(t, static, 1440, 900)

	// The first view: every photo, markers on the map, a list.
	var count string
	var markers, rows int
	b.run(t, ready(site),
		// The list's chunk may come after the count on a busy machine.
		chromedp.WaitReady(`[data-testid=photo-row]`, chromedp.ByQuery),
		chromedp.Text(`[data-testid=count]`, &count, chromedp.ByQuery),
		eval(`document.querySelectorAll(".leaflet-marker-pane .cluster, .leaflet-marker-pane .pm").length`, &markers),
		eval(`document.querySelectorAll("[data-testid=photo-row]").length`, &rows))
	if want := apiCount(t, live, ""); shownCount(t, count) != want || markers == 0 || rows == 0 {
		t.Errorf("published first view: count %q (the live API: %d), %d markers, %d rows", count, want, markers, rows)
	}

	// Brush 2016: the count is the live server's for that window.
	x, y := monthX(t, b)
	var search string
	b.run(t, drag(x(48), x(59), y), chromedp.Text(`[data-testid=count]`, &count, chromedp.ByQuery), eval(`location.search`, &search))
	if want := apiCount(t, live, "?from=2016-01&to=2016-12"); shownCount(t, count) != want || !strings.Contains(search, "from=2016-01") {
		t.Errorf("after brushing 2016: count %q, the live API %d; address %q", count, want, search)
	}

	// The permalink restores the window and the count.
	var again, label string
	b.run(t, ready(site+search), chromedp.Text(`[data-testid=count]`, &again, chromedp.ByQuery),
		chromedp.Text(`[data-testid=window]`, &label, chromedp.ByQuery))
	if again != count || !strings.HasPrefix(label, "January 2016 – December 2016") {
		t.Errorf("the permalink %s shows %q, window %q; before it %q", search, again, label, count)
	}

	// The downloads of the selection hold the live server's photos.
	var geojsonN, csvRows int
	b.run(t, eval(`(async () => (await (await fetch(document.querySelector("[data-testid=download-geojson]").href)).json()).features.length)()`, &geojsonN),
		eval(`(async () => (await (await fetch(document.querySelector("[data-testid=download-csv]").href)).text()).trim().split("\n").length - 1)()`, &csvRows))
	if want := apiCount(t, live, "?from=2016-01&to=2016-12"); geojsonN != want || csvRows != want {
		t.Errorf("the downloads of 2016 hold %d features and %d CSV rows; the live API selects %d", geojsonN, csvRows, want)
	}

	// Filters and search, by the address as a shared link gives them and
	// by the form: the live server's counts.
	for _, q := range []string{"?agency=Reuters", "?q=Aleppo", "?governorate=Idlib", "?min_confidence=0.9&from=2015-01&to=2017-12"} {
		b.run(t, ready(site+q), chromedp.Text(`[data-testid=count]`, &count, chromedp.ByQuery))
		if want := apiCount(t, live, q); shownCount(t, count) != want {
			t.Errorf("%s: the published page counts %q, the live API %d", q, count, want)
		}
	}
	var facetCount int
	b.run(t, ready(site),
		chromedp.Click(`[data-facet=agency] button`, chromedp.ByQuery),
		chromedp.Poll(`document.querySelectorAll("[data-facet=agency] li").length > 0`, nil, chromedp.WithPollingTimeout(10*time.Second)),
		eval(`Number(document.querySelector("[data-facet=agency] li .facet-count").textContent.replace(/,/g, ""))`, &facetCount))
	if facetCount == 0 {
		t.Error("the agency filter lists no counts")
	}

	// Play moves the window.
	var pressed string
	b.run(t, chromedp.Click(`[data-testid=play]`, chromedp.ByQuery), until(`!document.querySelector("[data-testid=window]").textContent.includes("–")`),
		chromedp.AttributeValue(`[data-testid=play]`, "aria-pressed", &pressed, nil, chromedp.ByQuery),
		chromedp.Text(`[data-testid=window]`, &label, chromedp.ByQuery), chromedp.Click(`[data-testid=play]`, chromedp.ByQuery))
	if pressed != "true" || strings.Contains(label, "–") {
		t.Errorf("play: pressed %q, window %q", pressed, label)
	}

	// A stacked spot's list, and a photo from it in a popup.
	var spot, title string
	b.run(t, ready(site+"?map=15/35.6147/36.5603"),
		chromedp.WaitVisible(`.leaflet-marker-pane .pm.spot`, chromedp.ByQuery),
		chromedp.Text(`.leaflet-marker-pane .pm.spot span`, &spot, chromedp.ByQuery),
		chromedp.Click(`.leaflet-marker-pane .pm.spot`, chromedp.ByQuery),
		waitText(`[data-testid=spot-title]`, "Kafr Nabl"),
		chromedp.Text(`[data-testid=spot-title]`, &title, chromedp.ByQuery),
		eval(`document.querySelectorAll("[data-testid=spot-list] [data-testid=photo-row]").length`, &rows),
		chromedp.Click(`[data-testid=spot-list] [data-testid=show-on-map]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=popup]`, chromedp.ByQuery))
	if spot != "2" || title != "2 photos at Kafr Nabl" || rows != 2 {
		t.Errorf("the published Kafr Nabl spot: marker %q, panel %q with %d rows", spot, title, rows)
	}

	// A photo's page, from a row's link.
	var href, heading string
	b.run(t, ready(site), chromedp.WaitReady(`[data-testid=photo-row] a[href*="photo.html"]`, chromedp.ByQuery), // the list's chunk may come after the map's
		eval(`document.querySelector('[data-testid=photo-row] a[href*="photo.html"]').href`, &href))
	b.run(t, chromedp.Navigate(href), chromedp.WaitVisible(`#static-photo h1`, chromedp.ByQuery),
		chromedp.Text(`#static-photo h1`, &heading, chromedp.ByQuery))
	if heading == "" {
		t.Errorf("the photo page %s has no heading", href)
	}

	// The photo's place has its page, one folder down: its map drawn
	// from the site's basemap, its photos listed.
	var placeName string
	var drawn bool
	b.run(t, eval(`document.querySelector('#static-photo a[href*="places/"]').href`, &href))
	b.run(t, chromedp.Navigate(href), chromedp.WaitVisible(`[data-testid=place] h1`, chromedp.ByQuery),
		chromedp.Poll(`document.querySelectorAll("[data-testid=place-map] path").length > 0`, nil, chromedp.WithPollingTimeout(10*time.Second)),
		chromedp.Text(`[data-testid=place] h1`, &placeName, chromedp.ByQuery),
		eval(`document.querySelectorAll("[data-testid=place-map] path").length > 0`, &drawn),
		eval(`document.querySelectorAll("[data-testid=photo-row]").length`, &rows))
	if placeName == "" || !drawn || rows == 0 {
		t.Errorf("the place page %s: heading %q, map drawn %v, %d photos listed", href, placeName, drawn, rows)
	}
	b.check(t)
}

// TestBrowserPublishedLarge is a published site above its points limit,
// as a million photos are: the map comes from the PMTiles archive by
// range requests, the counts from the publish's own, the list from the
// first chunks; the list of every photo is not loaded until a filter
// needs it. The counts are the live server's.
func TestBrowserPublishedLarge(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	_, live, a := newTestServer(t)
	dir := t.TempDir()
	if _, err := publish.Publish(context.Background(), a, dir, publish.Options{IncludeUnplaced: true, PointsLimit: 5}); err != nil {
		t.Fatal(err)
	}
	static := httptest.NewServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(static.Close)
	b := newBrowser(t, static, 1440, 900)
	var count string
	var markers, rows int
	var fetched []string
	b.run(t, ready(static.URL+"/"),
		chromedp.WaitReady(`[data-testid=photo-row]`, chromedp.ByQuery), // the list's chunks may come after the map's
		chromedp.Text(`[data-testid=count]`, &count, chromedp.ByQuery),
		eval(`[...document.querySelectorAll(".leaflet-marker-pane .cluster span, .leaflet-marker-pane .pm.spot span")].reduce((n, e) => n + Number(e.textContent), 0) +
			document.querySelectorAll(".leaflet-marker-pane .pm:not(.spot)").length`, &markers),
		eval(`document.querySelectorAll("[data-testid=photo-row]").length`, &rows),
		eval(`performance.getEntriesByType("resource").map((e) => e.name)`, &fetched))
	placed := apiCount(t, live, "?bbox=-180,-90,180,90")
	if want := apiCount(t, live, ""); shownCount(t, count) != want || markers != placed || rows == 0 {
		t.Errorf("large published site: count %q (live %d), the map shows %d photos (%d placed), %d rows", count, want, markers, placed, rows)
	}
	for _, u := range fetched {
		if strings.Contains(u, "/data/points.") {
			t.Errorf("the first view loaded the list of every photo (%s)", u)
		}
	}
	if !strings.Contains(strings.Join(fetched, " "), ".pmtiles") {
		t.Errorf("the map read no tiles: %q", fetched)
	}
	x, y := monthX(t, b)
	b.run(t, drag(x(48), x(59), y), chromedp.Text(`[data-testid=count]`, &count, chromedp.ByQuery),
		eval(`[...document.querySelectorAll(".leaflet-marker-pane .cluster span, .leaflet-marker-pane .pm.spot span")].reduce((n, e) => n + Number(e.textContent), 0) +
			document.querySelectorAll(".leaflet-marker-pane .pm:not(.spot)").length`, &markers))
	if want := apiCount(t, live, "?from=2016-01&to=2016-12"); shownCount(t, count) != want || markers != apiCount(t, live, "?from=2016-01&to=2016-12&bbox=-180,-90,180,90") {
		t.Errorf("2016 on the large site: count %q, %d on the map; the live API selects %d", count, markers, want)
	}
	// The list, read from the chunks: the window's photos in view.
	var dates []string
	b.run(t, settled(), eval(`[...document.querySelectorAll("[data-testid=photo-list] [data-testid=date]")].map((e) => e.textContent)`, &dates))
	if len(dates) == 0 {
		t.Error("the large site lists no photo of 2016")
	}
	for _, d := range dates {
		if !strings.Contains(d, "2016") {
			t.Errorf("the list of 2016 shows a photo of %q", d)
		}
	}
	// A filter loads the list of every photo and counts as the server.
	b.run(t, ready(static.URL+"/?agency=Reuters"), chromedp.Text(`[data-testid=count]`, &count, chromedp.ByQuery))
	if want := apiCount(t, live, "?agency=Reuters"); shownCount(t, count) != want {
		t.Errorf("Reuters on the large site: %q; the live API %d", count, want)
	}
	b.check(t)
}

// TestBrowserPublishedStory: a published story is part of the published
// site, read from the static server: its steps by keyboard, its map,
// its state step's clusters, and explore from here into the site's own
// explorer.
func TestBrowserPublishedStory(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	e := newEditorServer(t, httpapi.Options{})
	kafr := e.photoID(t, "?place=ocha:C2320")
	st := story.Story{Title: "Idlib, 2016", Status: story.Published, Steps: []story.Step{
		{Heading: "Kafr Nabl", Text: "The *banners*.", Photos: []story.PhotoRef{{ID: kafr}}, Highlight: kafr},
		{Heading: "The governorate", State: "from=2016-01&to=2016-12&governorate=Idlib&map=9/35.8/36.6"},
	}}
	if err := st.Validate(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := e.a.SaveStory(ctx, st, "", "rana", ""); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := publish.Publish(ctx, e.a, dir, publish.Options{IncludeUnplaced: true}); err != nil {
		t.Fatal(err)
	}
	static := httptest.NewServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(static.Close)
	b := newBrowser(t, static, 1440, 900)
	var steps, clusters int
	var label string
	b.run(t, chromedp.Navigate(static.URL+"/stories.html"), chromedp.Click(`[data-testid=story-item] a`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=story-step].current`, chromedp.ByQuery),
		eval(`document.querySelectorAll("[data-testid=story-step]").length`, &steps),
		chromedp.KeyEvent("\u0301"), // ArrowDown
		chromedp.Poll(`document.querySelector("[data-testid=story]").dataset.settled === "2"`, nil, chromedp.WithPollingTimeout(10*time.Second)),
		eval(`document.querySelectorAll("#story-map .story-cluster, #story-map path.leaflet-interactive").length`, &clusters),
		chromedp.Click(`#step-2 [data-testid=explore-from-here]`, chromedp.ByQuery),
		chromedp.WaitReady(`#explorer`, chromedp.ByQuery),
		chromedp.Poll(`performance.getEntriesByName("syriamap:ready").length > 0`, nil, chromedp.WithPollingTimeout(20*time.Second)),
		chromedp.Text(`[data-testid=window]`, &label, chromedp.ByQuery))
	if steps != 2 || clusters == 0 || !strings.HasPrefix(label, "January 2016 – December 2016") {
		t.Errorf("the published story: %d steps, %d markers at its governorate step, explore from here shows %q", steps, clusters, label)
	}
	b.check(t)
}

// TestBrowserAccessibilityPublished: axe-core on the published site's
// pages — the explorer, a photo, a place, the stories, the about page —
// in English and Arabic at 1440×900 and 375×812: no serious or critical
// violations (issue 41, defect 19: the photo page's map held focusable
// elements).
func TestBrowserAccessibilityPublished(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	axe := axeScript(t)
	_, _, a := newTestServer(t)
	// A story whose photo is marked graphic: its "show it" label over
	// the blur is read by axe too (issue 54, 7: its contrast at 375 px).
	ctx := context.Background()
	graphic, err := a.Photos(ctx, photo.Filter{PlaceIDs: []string{"ocha:C2320"}})
	if err != nil || len(graphic) == 0 {
		t.Fatalf("a photo to mark graphic: %v", err)
	}
	if _, err := a.SetHarm(ctx, graphic[0].ID, photo.HarmGraphic, "editor rana", "a test"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.SaveStory(ctx, story.Story{Slug: "graphic", Title: "A graphic photo", Status: story.Published,
		Steps: []story.Step{{Heading: "Zamalka", Photos: []story.PhotoRef{{ID: graphic[0].ID}}}}}, "", "rana", ""); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := publish.Publish(ctx, a, dir, publish.Options{IncludeUnplaced: true}); err != nil {
		t.Fatal(err)
	}
	static := httptest.NewServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(static.Close)
	var placePage string
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if rel, _ := filepath.Rel(dir, path); err == nil && !d.IsDir() && placePage == "" && strings.HasPrefix(rel, "places"+string(filepath.Separator)) {
			placePage = "/" + filepath.ToSlash(rel)
		}
		return nil
	})
	// A photo's page is drawn by the script from the data: its address
	// is the list's first caption link.
	var photoPage string
	b := newBrowser(t, static, 1440, 900)
	b.run(t, ready(static.URL+"/"), chromedp.WaitReady(`[data-testid=photo-row]`, chromedp.ByQuery),
		eval(`new URL(document.querySelector("[data-testid=photo-row] [data-testid=caption]").href).pathname + new URL(document.querySelector("[data-testid=photo-row] [data-testid=caption]").href).search`, &photoPage))
	if !strings.HasPrefix(photoPage, "/photo.html?id=") || placePage == "" {
		t.Fatalf("no photo or place page in the published site (%q, %q)", photoPage, placePage)
	}
	var storyPage string
	b.run(t, chromedp.Navigate(static.URL+"/stories.html"), chromedp.WaitVisible(`[data-testid=story-item] a`, chromedp.ByQuery),
		eval(`new URL(document.querySelector("[data-testid=story-item] a").href).pathname`, &storyPage))
	pages := []string{"/", photoPage, placePage, "/about.html", "/stories.html", storyPage}
	for _, size := range [][2]int{{1440, 900}, {375, 812}} {
		b := newBrowser(t, static, size[0], size[1])
		for _, page := range pages {
			for _, lang := range []string{"en", "ar"} {
				u := static.URL + page
				if lang == "ar" {
					u = static.URL + "/ar" + page
				}
				for _, v := range axeViolations(t, b, axe, u) {
					t.Errorf("%dx%d, %s, %s: %s", size[0], size[1], lang, page, v)
				}
			}
		}
	}
}

// TestBrowserPublishedWithoutRanges (issue 54, defect 4; issue 68, item
// 4): a published site above its points limit on a host that answers a
// range request with the whole file (as Python's http.server does) reads
// its overview whole and draws every placed photo in its clusters at
// once, counts them, and warns of nothing; past the overview's zoom the
// map says its groups are coarser. (Before: a warning that the map may
// stay empty, and no marker until the page had read every photo.)
func TestBrowserPublishedWithoutRanges(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	_, live, a := newTestServer(t)
	dir := t.TempDir()
	if _, err := publish.Publish(context.Background(), a, dir, publish.Options{IncludeUnplaced: true, PointsLimit: 5}); err != nil {
		t.Fatal(err)
	}
	files := http.FileServer(http.Dir(dir))
	var wholeTiles atomic.Int32 // requests for the whole tiles archive
	static := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/data/photos.") && strings.HasSuffix(r.URL.Path, ".pmtiles") {
			wholeTiles.Add(1)
		}
		r.Header.Del("Range") // the whole file, 200, whatever was asked
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(static.Close)
	b := newBrowser(t, static, 1440, 900)
	const onMap = `[...document.querySelectorAll(".leaflet-marker-pane .cluster span, .leaflet-marker-pane .pm.spot span")].reduce((n, e) => n + Number(e.textContent), 0) +
		document.querySelectorAll(".leaflet-marker-pane .pm:not(.spot)").length`
	var count string
	var markers, warnings, notes int
	b.run(t, ready(static.URL+"/"),
		until(onMap+` > 0`),
		chromedp.Text(`[data-testid=count]`, &count, chromedp.ByQuery),
		eval(onMap, &markers),
		eval(`document.querySelectorAll("[data-testid=map-warning]").length`, &warnings),
		eval(`document.querySelectorAll("[data-testid=map-coarse]:not([hidden])").length`, &notes))
	shoot(t, b, "published-no-range-requests.png")
	if placed := apiCount(t, live, "?bbox=-180,-90,180,90"); markers != placed || shownCount(t, count) != apiCount(t, live, "") {
		t.Errorf("a host without ranges: the map shows %d photos (%d placed), the count %q", markers, placed, count)
	}
	if warnings != 0 || notes != 0 {
		t.Errorf("a host without ranges, at the overview's zoom: %d warnings, %d notes; want none", warnings, notes)
	}
	// The probe asks for the overview, which such a host sends whole: the
	// tiles archive (8 MB at 205,000 photos) is never fetched to learn it.
	if n := wholeTiles.Load(); n != 0 {
		t.Errorf("the page asked a host without ranges for the whole tiles archive %d times", n)
	}
	// Zoomed in past the overview: the groups are coarser, and said so.
	var note string
	b.run(t, chromedp.Navigate(static.URL+"/?map=11/36.2000/37.1600"),
		chromedp.WaitVisible(`[data-testid=map-coarse]`, chromedp.ByQuery),
		chromedp.Text(`[data-testid=map-coarse]`, &note, chromedp.ByQuery))
	if !strings.Contains(note, "range requests") || !strings.Contains(note, "zoom 8") {
		t.Errorf("past the overview's zoom the map says %q", note)
	}
	b.check(t)
}

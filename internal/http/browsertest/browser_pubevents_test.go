package browsertest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/syriamap/syriamap/internal/http/publish"
	"github.com/syriamap/syriamap/internal/photo"
)

// noRanges serves the folder dir as Python's http.server does: a request
// for a range is answered with the whole file (200).
func noRanges(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Header.Del("Range")
		files.ServeHTTP(w, r)
	})
}

// TestBrowserPublishedEvents (issue 68, 5): in a published site served
// as a folder by a host without range requests, an event's popup says
// how many photos editors linked to it as a link, and the link lists
// them (the site's list by the event filter): counted as a number, the
// timeline with its events line, no word of event pages the site does
// not have. A filter the site cannot answer is said once, not twice.
func TestBrowserPublishedEvents(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	e, aleppo := withEvents(t, "Rebel fighters fire a mortar during clashes in Aleppo, Syria January 1, 2016. REUTERS/Abdalrhman Ismail", "mortar")
	ctx := context.Background()
	if _, err := e.a.SetEventLink(ctx, aleppo, "ucdp-ged", "214808", photo.LinkConfirmed, "editor rana"); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := publish.Publish(ctx, e.a, dir, publish.Options{IncludeUnplaced: true}); err != nil {
		t.Fatal(err)
	}
	static := httptest.NewServer(noRanges(dir))
	t.Cleanup(static.Close)
	b := newBrowser(t, static, 1440, 900)

	// The event's photos by the address (a link shared, or the popup's
	// below): counted, listed, with the events line and no word of what
	// the site lacks.
	eventPhotos := func(t *testing.T, how string, actions ...chromedp.Action) {
		t.Helper()
		var count, page, captions string
		var warnings, line int
		b.run(t, append(actions,
			chromedp.Poll(`performance.getEntriesByName("syriamap:ready").length > 0`, nil, chromedp.WithPollingTimeout(30*time.Second)),
			settled(),
			until(`document.querySelectorAll("[data-testid=photo-row]").length === 1`),
			chromedp.Text(`[data-testid=count]`, &count, chromedp.ByQuery),
			eval(`[...document.querySelectorAll("[data-testid=photo-row]")].map((r) => r.textContent).join(" | ")`, &captions),
			eval(`document.querySelectorAll("[data-testid=map-warning]").length`, &warnings),
			press(`[data-testid=events-toggle]`),
			until(`document.querySelectorAll("[data-testid=events-line]").length === 1`),
			eval(`document.querySelectorAll("[data-testid=events-line]").length`, &line),
			eval(`document.body.innerText`, &page))...)
		if !countRe.MatchString(count) || shownCount(t, count) != 1 || !strings.Contains(captions, "mortar") {
			t.Errorf("%s: count %q, rows %q", how, count, captions)
		}
		if warnings != 0 || line != 1 || strings.Contains(page, "could not count") || strings.Contains(page, "event’s page") || strings.Contains(page, "event's page") {
			t.Errorf("%s: %d map warnings, %d events lines; the page says:\n%s", how, warnings, line, page)
		}
	}
	eventPhotos(t, "the address ?event=ucdp-ged:214808", chromedp.Navigate(static.URL+"/index.html?event=ucdp-ged:214808"))

	// A filter the site does not answer is said once.
	var says int
	var page string
	b.run(t, ready(static.URL+"/index.html?reuse=copy"),
		until(`document.body.innerText.includes("does not filter by reuse")`),
		eval(`document.body.innerText.split("does not filter by reuse").length - 1`, &says),
		eval(`document.body.innerText`, &page))
	if says != 1 || strings.Contains(page, "could not count") {
		t.Errorf("the refused filter is said %d times; the page:\n%s", says, page)
	}

	// The event's popup: its photos' count is a link to them.
	var link, linkText string
	b.run(t, ready(static.URL+"/index.html?from=2016-01&to=2016-01&map=8/36.2/37.15"), press(`[data-testid=events-toggle]`),
		chromedp.Poll(`document.querySelectorAll("path.event-mark, path.event-cluster").length > 0`, nil, chromedp.WithPollingTimeout(20*time.Second)),
		chromedp.SetValue(`[data-testid=events-documented]`, "1", chromedp.ByQuery),
		eval(`document.querySelector("[data-testid=events-documented]").dispatchEvent(new Event("change"))`, nil),
		chromedp.Poll(`document.querySelectorAll("path.event-mark").length === 1`, nil, chromedp.WithPollingTimeout(10*time.Second)),
		eval(`(() => { const m = document.querySelector("path.event-mark"); m.dispatchEvent(new MouseEvent("click", {bubbles: true})); return true; })()`, nil),
		chromedp.WaitVisible(`[data-testid=event-popup]`, chromedp.ByQuery),
		until(`document.querySelector("[data-testid=event-popup] a[data-testid=event-photos]") !== null`),
		eval(`document.querySelector("[data-testid=event-popup] a[data-testid=event-photos]")?.href || ""`, &link),
		eval(`document.querySelector("[data-testid=event-popup] a[data-testid=event-photos]")?.textContent || ""`, &linkText))
	if link == "" || !strings.Contains(linkText, "1 photo") {
		t.Fatalf("the popup's photos are no link: %q %q", link, linkText)
	}
	axe := axeScript(t)
	// (The popup fades in: axe reads its colours once it is opaque.)
	b.run(t, until(`getComputedStyle(document.querySelector(".leaflet-popup")).opacity === "1"`))
	for _, v := range axeHere(t, b, axe) {
		t.Errorf("the event's popup: %s", v)
	}
	eventPhotos(t, "the popup's link "+link, press(`[data-testid=event-popup] a[data-testid=event-photos]`), until(`location.search.includes("event=")`))
	for _, v := range axeHere(t, b, axe) {
		t.Errorf("the event's photos: %s", v)
	}
	b.check(t)

	// In Arabic, on a phone: the same list, its filter shown.
	ar := newBrowser(t, static, 375, 812)
	var arCount, chosen string
	ar.run(t, ready(static.URL+"/ar/index.html?event=ucdp-ged:214808"),
		until(`document.querySelectorAll("[data-testid=photo-row]").length === 1`),
		eval(`document.querySelector("[data-testid=count]").textContent.trim()`, &arCount), // in the phone's closed sheet
		eval(`document.querySelector("[data-testid=event-filter]").value`, &chosen))
	if !strings.HasPrefix(arCount, "١ ") || chosen != "ucdp-ged:214808" {
		t.Errorf("the Arabic site's event list: count %q, the filter shows %q", arCount, chosen)
	}
	for _, v := range axeHere(t, ar, axe) {
		t.Errorf("the Arabic event list at 375 px: %s", v)
	}
	ar.check(t)
}

// TestBrowserPublishedRangeWarning (issue 68, 4): on a host that does
// not answer range requests no site warns of it while its map works — a
// small site's map is its list of points, a large one's its overview
// (TestBrowserPublishedWithoutRanges) — and each draws its photos. (On
// main the small site warned.)
func TestBrowserPublishedRangeWarning(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	_, _, a := newTestServer(t)
	for _, c := range []struct {
		name  string
		limit int // the publish's PointsLimit (0: the explorer's own)
	}{{"small", 0}, {"large", 5}} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if _, err := publish.Publish(context.Background(), a, dir, publish.Options{IncludeUnplaced: true, PointsLimit: c.limit}); err != nil {
				t.Fatal(err)
			}
			static := httptest.NewServer(noRanges(dir))
			t.Cleanup(static.Close)
			b := newBrowser(t, static, 1440, 900)
			var warning, count string
			var markers int
			b.run(t, chromedp.Navigate(static.URL+"/"), chromedp.WaitReady(`#explorer`, chromedp.ByQuery),
				until(`document.querySelector("[data-testid=map-warning]") !== null || performance.getEntriesByName("syriamap:ready").length > 0`),
				settled(),
				eval(`document.querySelector("[data-testid=map-warning]")?.textContent || ""`, &warning),
				chromedp.Text(`[data-testid=count]`, &count, chromedp.ByQuery),
				eval(`document.querySelectorAll(".leaflet-marker-pane .cluster, .leaflet-marker-pane .pm").length`, &markers))
			if warning != "" {
				t.Errorf("the map warns %q", warning)
			}
			if markers == 0 || shownCount(t, count) == 0 {
				t.Errorf("the site's map: %d markers, count %q", markers, count)
			}
			b.check(t)
		})
	}
}

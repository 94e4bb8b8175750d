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

// TestBrowserEventsLayer (issue 56, 4): in the explorer, live and
// published, the conflict events layer turns on, draws UCDP GED's events
// of the timeline's window as marks of their type of violence, draws
// their months on the timeline, opens an event's popup (with its page
// where the server has one, and a link to its photos), and narrows to the events a photo
// documents; an editor confirms an event on a photo's page with its
// buttons, and undoes it.
func TestBrowserEventsLayer(t *testing.T) {
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
	static := httptest.NewServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(static.Close)
	for _, site := range []struct {
		name, url string
		pages     bool
	}{{"live", e.ts.URL + "/?from=2016-01&to=2016-01&map=8/36.2/37.15", true}, {"published", static.URL + "/index.html?from=2016-01&to=2016-01&map=8/36.2/37.15", false}} {
		t.Run(site.name, func(t *testing.T) {
			b := newBrowser(t, map[bool]*httptest.Server{true: e.ts, false: static}[site.pages], 1440, 900)
			var marks, line, documented int
			var status, popup, photosLink string
			b.run(t, ready(site.url), press(`[data-testid=events-toggle]`),
				chromedp.Poll(`document.querySelectorAll("path.event-mark, path.event-cluster").length > 0`, nil, chromedp.WithPollingTimeout(20*time.Second)),
				eval(`document.querySelectorAll("path.event-state-based, path.event-non-state, path.event-one-sided, path.event-cluster").length`, &marks),
				eval(`document.querySelectorAll("[data-testid=events-line]").length`, &line),
				chromedp.Text(`.events-status`, &status, chromedp.ByQuery),
				chromedp.SetValue(`[data-testid=events-documented]`, "1", chromedp.ByQuery),
				eval(`document.querySelector("[data-testid=events-documented]").dispatchEvent(new Event("change"))`, nil),
				chromedp.Poll(`document.querySelectorAll("path.event-mark").length === 1`, nil, chromedp.WithPollingTimeout(10*time.Second)),
				eval(`document.querySelectorAll("path.event-mark").length`, &documented),
				eval(`(() => { const m = document.querySelector("path.event-mark"); m.dispatchEvent(new MouseEvent("click", {bubbles: true})); return true; })()`, nil),
				chromedp.WaitVisible(`[data-testid=event-popup]`, chromedp.ByQuery),
				chromedp.Text(`[data-testid=event-popup]`, &popup, chromedp.ByQuery),
				eval(`document.querySelector("[data-testid=event-popup] a[data-testid=event-photos]")?.href || ""`, &photosLink))
			if marks == 0 || line != 1 || !strings.Contains(status, "events on the map") || documented != 1 {
				t.Errorf("the layer: %d marks, %d timeline lines, status %q, %d documented", marks, line, status, documented)
			}
			if site.pages { // the filter of photos linked to an event, live only
				var count string
				b.run(t, chromedp.SetValue(`[data-testid=event-filter]`, "any", chromedp.ByQuery),
					eval(`document.querySelector("[data-testid=event-filter]").dispatchEvent(new Event("change", {bubbles: true}))`, nil),
					chromedp.Poll(`location.search.includes("event=any")`, nil, chromedp.WithPollingTimeout(10*time.Second)),
					until(`document.querySelector("[data-testid=count]").textContent.startsWith("1 of")`),
					chromedp.Text(`[data-testid=count]`, &count, chromedp.ByQuery))
				if !strings.HasPrefix(count, "1 of") {
					t.Errorf("photos linked to an event: %q", count)
				}
			}
			if !strings.Contains(popup, "GED 214808") || !strings.Contains(popup, "1 photo") || strings.Contains(popup, "Open the event") != site.pages {
				t.Errorf("the popup: %q", popup)
			}
			// Its photos are a link to the explorer's list of them (issue 68, 5).
			var linked string
			b.run(t, chromedp.Navigate(photosLink), chromedp.WaitReady(`#explorer`, chromedp.ByQuery),
				until(`/^1 of /.test(document.querySelector("[data-testid=count]").textContent)`),
				chromedp.Text(`[data-testid=count]`, &linked, chromedp.ByQuery))
			if !strings.Contains(photosLink, "event=ucdp-ged%3A214808") || !strings.HasPrefix(linked, "1 of") {
				t.Errorf("the popup's photos link %q lists %q", photosLink, linked)
			}
			b.check(t)
		})
	}
	// An editor's buttons on the photo's page: undo, then confirm again.
	b := newBrowser(t, e.ts, 1440, 900)
	var links int
	b.run(t, chromedp.Navigate(e.ts.URL+"/signin"), chromedp.SendKeys(`input[name=name]`, "rana", chromedp.ByQuery),
		chromedp.SendKeys(`input[name=password]`, testPassword, chromedp.ByQuery), chromedp.Submit(`[data-testid=signin]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=review-groups]`, chromedp.ByQuery),
		chromedp.Navigate(e.ts.URL+"/photos/"+aleppo), chromedp.WaitVisible(`[data-testid=event-links]`, chromedp.ByQuery),
		chromedp.Click(`[data-testid="event--214808"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid="event-confirmed-214808"]`, chromedp.ByQuery),
		chromedp.Click(`[data-testid="event-confirmed-214808"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=event-links]`, chromedp.ByQuery),
		eval(`document.querySelectorAll("[data-testid=event-link]").length`, &links))
	if links != 1 {
		t.Errorf("after undo and confirm, %d links on the page", links)
	}
	b.check(t)
}

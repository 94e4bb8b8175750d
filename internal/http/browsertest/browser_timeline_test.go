package browsertest

import (
	"context"
	"fmt"
	"github.com/syriamap/syriamap/internal/http/httpapi"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserPlayFromTheFirstBusyMonth (issue 41, defect 9): play from
// "everything" starts at the first month that holds a tenth of a typical
// month, not in the near-empty months before; "Pile up" keeps the start
// and widens the window a month at a time. Before it, the slider says its
// value while the months load (issue 41, defect 19).
func TestBrowserPlayFromTheFirstBusyMonth(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	a, dir := httpapitest.EmptyArchive(t)
	var lines []string
	lines = append(lines, "A man walks in Idlib, Syria, May 3, 2010. REUTERS/A. Person") // one early photo
	for m := 1; m <= 6; m++ {
		for d := 1; d <= 20; d++ {
			lines = append(lines, fmt.Sprintf("Smoke rises over Aleppo, Syria, %s %d, 2013. REUTERS/A. Person", time.Month(m), d))
		}
	}
	path := filepath.Join(dir, "busy.txt")
	os.WriteFile(path, []byte(strings.Join(lines, "\n\n")+"\n"), 0o644)
	if _, err := a.ImportFile(context.Background(), path, "", nil); err != nil {
		t.Fatal(err)
	}
	ts, _ := serveArchive(t, a, httpapi.Options{})
	b := newBrowser(t, ts, 1440, 900)
	var valueNow, label, cumulative string
	b.run(t, chromedp.Navigate(ts.URL+"/"),
		chromedp.AttributeValue(`[data-testid=brush]`, "aria-valuenow", &valueNow, nil, chromedp.ByQuery))
	if valueNow == "" {
		t.Error("the slider has no aria-valuenow before the months load")
	}
	b.run(t, ready(ts.URL+"/"),
		chromedp.Click(`[data-testid=play]`, chromedp.ByQuery),
		until(`document.querySelector("[data-testid=window]").textContent.startsWith("January 2013")`),
		chromedp.Text(`[data-testid=window]`, &label, chromedp.ByQuery),
		chromedp.Click(`[data-testid=play]`, chromedp.ByQuery))
	if !strings.HasPrefix(label, "January 2013") || strings.Contains(label, "2010") {
		t.Errorf("play from everything starts at %q, want January 2013, the first busy month", label)
	}
	b.run(t, ready(ts.URL+"/"),
		eval(`(() => { const s = document.querySelector("[data-testid=speed]"); s.value = "4"; s.dispatchEvent(new Event("change")); })()`, nil),
		chromedp.Click(`[data-testid=cumulative]`, chromedp.ByQuery),
		chromedp.Click(`[data-testid=play]`, chromedp.ByQuery),
		until(`document.querySelector("[data-testid=window]").textContent.startsWith("January 2013 – ")`), // a step or more
		chromedp.Click(`[data-testid=play]`, chromedp.ByQuery),
		chromedp.Text(`[data-testid=window]`, &cumulative, chromedp.ByQuery))
	if !strings.HasPrefix(cumulative, "January 2013 – ") {
		t.Errorf("piled-up play after a few steps: %q, want January 2013 – a later month", cumulative)
	}
	b.check(t)
}

// TestBrowserClusterCountsCompact (issue 41, defect 12): a cluster of
// 5,000 photos reads "5k", and on the Arabic page "٥ آلاف" (CLDR's
// compact forms), never "5.0k" or "٥٫٠ ألف".
func TestBrowserClusterCountsCompact(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	a, dir := httpapitest.EmptyArchive(t)
	var b strings.Builder
	start := time.Date(2011, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 5040 {
		d := start.AddDate(0, 0, i)
		fmt.Fprintf(&b, "Smoke rises over Aleppo, Syria, %s %d, %d. REUTERS/Omar Sanadiki\n\n", d.Month(), d.Day(), d.Year())
	}
	path := filepath.Join(dir, "many.txt")
	os.WriteFile(path, []byte(b.String()), 0o644)
	if _, err := a.ImportFile(context.Background(), path, "", nil); err != nil {
		t.Fatal(err)
	}
	ts, _ := serveArchive(t, a, httpapi.Options{})
	for _, tc := range []struct{ lang, want, never string }{{"en", "5k", "5.0k"}, {"ar", "٥\u00a0آلاف", "٥٫٠"}} {
		br := newBrowser(t, ts, 1440, 900)
		var labels []string
		br.run(t, ready(ts.URL+"/?lang="+tc.lang),
			chromedp.Poll(`document.querySelectorAll("#map .cluster span, #map .spot span").length > 0`, nil, chromedp.WithPollingTimeout(10*time.Second)),
			eval(`[...document.querySelectorAll("#map .cluster span, #map .spot span")].map((s) => s.textContent)`, &labels))
		if !slices.Contains(labels, tc.want) || slices.ContainsFunc(labels, func(l string) bool { return strings.Contains(l, tc.never) }) {
			t.Errorf("%s: the cluster labels read %q, want %q", tc.lang, labels, tc.want)
		}
		br.check(t)
	}
}

// TestBrowserSmallerWords (issue 41, defect 18): the review form's place
// label closes its parenthesis; the list says "1 in view of 1 photo", not
// "1 of the 1 photo are in view"; the day chart begins a month with its
// name, not a "1"; a place's "also written" leaves out the datasets'
// noise ("dwma", "Douma i Syria").
func TestBrowserSmallerWords(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	e := newEditorServer(t, httpapi.Options{})
	b := newBrowser(t, e.ts, 1440, 900)
	signIn(t, b, e)
	zamalka := e.photoID(t, "?place=ocha:C2320")
	var label string
	b.run(t, chromedp.Navigate(e.ts.URL+"/review/photos/"+zamalka),
		chromedp.WaitVisible(`[data-testid=place-search]`, chromedp.ByQuery),
		eval(`document.querySelector("[data-testid=place-search]").closest("label").querySelector("span").innerText`, &label))
	if strings.Count(label, "(") != strings.Count(label, ")") || !strings.HasSuffix(strings.TrimSpace(label), ")") {
		t.Errorf("the place field's label: %q", label)
	}
	var scope string
	b.run(t, ready(e.ts.URL+"/?place=ocha:C2320"),
		chromedp.Poll(`!document.querySelector("[data-testid=list-scope]").hidden`, nil, chromedp.WithPollingTimeout(10*time.Second)),
		chromedp.Text(`[data-testid=list-scope]`, &scope, chromedp.ByQuery))
	if !strings.Contains(scope, "1 in view of 1 photo,") {
		t.Errorf("the list's scope: %q", scope)
	}
	var dayLabels []string
	b.run(t, ready(e.ts.URL+"/?from=2016-09&to=2016-10"),
		chromedp.Poll(`document.querySelectorAll("[data-testid=day-chart] text.month").length > 0`, nil, chromedp.WithPollingTimeout(10*time.Second)),
		eval(`[...document.querySelectorAll("[data-testid=day-chart] text.month")].map((x) => x.textContent)`, &dayLabels))
	if !slices.Contains(dayLabels, "September") || !slices.Contains(dayLabels, "October") || slices.Contains(dayLabels, "1") {
		t.Errorf("the day chart's axis: %q", dayLabels)
	}
	var names string
	b.run(t, chromedp.Navigate(e.ts.URL+"/places/gn:170592"),
		chromedp.WaitVisible(`[data-testid=names]`, chromedp.ByQuery),
		chromedp.Text(`[data-testid=names]`, &names, chromedp.ByQuery))
	if strings.Contains(names, "dwma") || strings.Contains(names, "Douma i Syria") || !strings.Contains(names, "Dūmā") {
		t.Errorf("Douma is also written %q", names)
	}
	b.check(t)
}

// TestBrowserPhoneCardLeavesTheMap (issue 41, defect 10, part): on a
// phone, a photo opened on the map shows its card in a sheet of at most
// half the screen, and the photo's marker stays in view above it.
func TestBrowserPhoneCardLeavesTheMap(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	_, ts, _ := newTestServer(t)
	b := newBrowser(t, ts, 375, 812)
	var r map[string]float64
	b.run(t, ready(ts.URL+"/?map=13/33.5247/36.3536"),
		chromedp.WaitVisible(`.leaflet-marker-pane .pm:not(.spot)`, chromedp.ByQuery),
		chromedp.Click(`.leaflet-marker-pane .pm:not(.spot)`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=selected-close]`, chromedp.ByQuery),
		settled(), // the sheet open, the map moved to keep the marker in sight
		eval(`(() => { const s = document.querySelector(".side").getBoundingClientRect();
			const ys = [...document.querySelectorAll(".leaflet-marker-pane .pm")].map((m) => { const b = m.getBoundingClientRect(); return (b.top + b.bottom) / 2; });
			return { sheet: s.height, top: s.top, screen: innerHeight, marker: Math.min(...ys) }; })()`, &r))
	if r["sheet"] > r["screen"]/2+1 || r["marker"] >= r["top"] || r["marker"] <= 0 {
		t.Errorf("the phone's card: a sheet of %v px of %v; the marker at %v, the sheet's top at %v", r["sheet"], r["screen"], r["marker"], r["top"])
	}
	shoot(t, b, "photo-card-375x812.png")
	b.check(t)
}

// TestBrowserBackRestoresTheView (issue 41, defect 6): each state the
// reader sees is one step of history and comes back whole: after Page Up
// on the timeline and a zoom, Back shows the Page Up window with the map
// as it was then, Back again the first window, and Forward the zoom.
func TestBrowserBackRestoresTheView(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	_, ts, _ := newTestServer(t)
	b := newBrowser(t, ts, 1440, 900)
	type view struct {
		Search string  `json:"search"`
		Zoom   float64 `json:"zoom"`
		Window string  `json:"window"`
	}
	read := func(v *view) chromedp.Action {
		return eval(`({ search: decodeURIComponent(location.search), zoom: Number(document.querySelector("#map").dataset.zoom || 0),
			window: document.querySelector("[data-testid=window]").textContent })`, v)
	}
	var start, paged, zoomed, back1, back2, forward view
	// Each step is read once the page shows what the step should: the
	// address and the zoom it asks for, and what that set going done.
	at := func(v view) chromedp.Action {
		return until(fmt.Sprintf(`decodeURIComponent(location.search) === %s && Number(document.querySelector("#map").dataset.zoom || 0) === %v`,
			jsString(v.Search), v.Zoom))
	}
	b.run(t, ready(ts.URL+"/?from=2016-01&to=2016-12"), read(&start))
	b.run(t, chromedp.Focus(`[data-testid=brush]`, chromedp.ByQuery), chromedp.KeyEvent(kb.PageUp),
		until(fmt.Sprintf(`decodeURIComponent(location.search) !== %s`, jsString(start.Search))), settled(), read(&paged))
	// A move of the map within a second of the last step of history joins
	// it (saveState): the zoom is a step of its own once that second is
	// over, the state waited for.
	b.run(t, until(`performance.now() - window.__settle.pushedAt > 1000`),
		chromedp.Focus(`#map`, chromedp.ByQuery), chromedp.KeyEvent("+"),
		until(fmt.Sprintf(`Number(document.querySelector("#map").dataset.zoom || 0) > %v`, paged.Zoom)), settled(), read(&zoomed))
	b.run(t, chromedp.NavigateBack(), at(paged), settled(), read(&back1))
	b.run(t, chromedp.NavigateBack(), at(start), settled(), read(&back2))
	b.run(t, chromedp.NavigateForward(), at(paged), chromedp.NavigateForward(), at(zoomed), settled(), read(&forward))
	if paged.Search == start.Search || zoomed.Zoom <= paged.Zoom {
		t.Fatalf("the steps did not happen: start %+v, Page Up %+v, zoom %+v", start, paged, zoomed)
	}
	if back1.Search != paged.Search || back1.Zoom != paged.Zoom || back1.Window != paged.Window {
		t.Errorf("Back after the zoom: %+v, want the Page Up step %+v", back1, paged)
	}
	if back2.Search != start.Search || back2.Window != start.Window || back2.Zoom != start.Zoom {
		t.Errorf("Back again: %+v, want the first step %+v", back2, start)
	}
	if forward.Search != zoomed.Search || forward.Zoom != zoomed.Zoom {
		t.Errorf("Forward twice: %+v, want the zoom %+v", forward, zoomed)
	}
	b.check(t)
}

// TestBrowserLateAnswersNeverOverwrite (issue 41, defect 8, part): a
// search that answers after the reader cleared it does not overwrite the
// page — the count and the timeline say the cleared selection — and slow
// work says so meanwhile.
func TestBrowserLateAnswersNeverOverwrite(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	_, ts, _ := newTestServer(t)
	b := newBrowser(t, ts, 1440, 900)
	set := func(v string) chromedp.Action {
		return eval(fmt.Sprintf(`(() => { const i = document.querySelector("form.filters [name=q]"); i.value = %q; i.dispatchEvent(new Event("input", { bubbles: true })); return true })()`, v), nil)
	}
	var before, busy, after, window string
	b.run(t, ready(ts.URL+"/"), chromedp.Text(`[data-testid=count]`, &before, chromedp.ByQuery),
		// The search's answers come 1.5 s late; the rest at once.
		eval(`(() => { const real = window.fetch; window.fetch = (u, o) => String(u).includes("q=Aleppo") ? new Promise((ok) => setTimeout(() => ok(real(u, o)), 1500)) : real(u, o); return true })()`, nil),
		set("Aleppo"), until(`document.querySelector("[data-testid=count]").getAttribute("aria-busy") === "true"`), // typing's pause, then the work's
		eval(`document.querySelector("[data-testid=count]").getAttribute("aria-busy") || ""`, &busy),
		set(""), settled(), // the late answer too has come and gone
		chromedp.Text(`[data-testid=count]`, &after, chromedp.ByQuery),
		chromedp.Text(`[data-testid=window]`, &window, chromedp.ByQuery))
	if busy != "true" {
		t.Errorf("while the search was slow the count was not marked busy (%q)", busy)
	}
	if after != before {
		t.Errorf("after clearing a slow search the count reads %q, want the whole selection's %q", after, before)
	}
	b.check(t)
}

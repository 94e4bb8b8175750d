package browsertest

import (
	"context"
	"fmt"
	"github.com/syriamap/syriamap/internal/http/httpapi"
	"math"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/paulmach/orb/geojson"

	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/http/headless"
)

// The explorer's browser tests run in headless Chromium. Each numbered
// defect of the explorer's second round (issue 14) has a test here that
// fails on the first round's page: the number is in the test's comment.

// browser starts headless Chromium for the test, recording what a person
// would notice: script errors and requests that leave the server.
type browser struct {
	ctx      context.Context
	mu       sync.Mutex
	errors   []string
	outside  []string
	notFound []string
	serverAt string
	// elsewhere is a second origin the page may ask (a tile server the
	// test runs), or "".
	elsewhere string
}

func newBrowser(t testing.TB, ts *httptest.Server, width, height int) *browser {
	t.Helper()
	bctx, closeTab, err := newTab()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancelTimeout := context.WithTimeout(bctx, 120*time.Second)
	t.Cleanup(func() { cancelTimeout(); closeTab() })
	b := &browser{ctx: ctx, serverAt: ts.URL}
	chromedp.ListenTarget(ctx, func(ev any) {
		b.mu.Lock()
		defer b.mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventExceptionThrown:
			b.errors = append(b.errors, e.ExceptionDetails.Error())
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.APITypeError {
				var args []string
				for _, a := range e.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				b.errors = append(b.errors, "console.error: "+strings.Join(args, " "))
			}
		case *network.EventRequestWillBeSent:
			u := e.Request.URL
			if !strings.HasPrefix(u, ts.URL) && !strings.HasPrefix(u, "data:") && !strings.HasPrefix(u, "blob:") &&
				(b.elsewhere == "" || !strings.HasPrefix(u, b.elsewhere)) {
				b.outside = append(b.outside, u)
			}
		case *network.EventResponseReceived:
			if e.Response.Status == 404 {
				b.notFound = append(b.notFound, e.Response.URL)
			}
		}
	})
	if err := chromedp.Run(ctx, network.Enable(), runtime.Enable(), watchWork(), chromedp.EmulateViewport(int64(width), int64(height))); err != nil {
		t.Fatal(err)
	}
	return b
}

// chromium is the one Chromium the package's browser tests share: each
// test has a window of its own in a browser context of its own (cookies,
// storage and cache apart from every other test's), a fraction of the
// cost of starting a browser for it.
var chromium struct {
	once   sync.Once
	ctx    context.Context
	cancel context.CancelFunc
	err    error
}

// newTab opens a window in a new browser context of the shared Chromium,
// started on first use; closeTab closes both.
func newTab() (ctx context.Context, closeTab func(), err error) {
	chromium.once.Do(func() {
		chromium.ctx, chromium.cancel, chromium.err = headless.Start(context.Background(), 1440, 900)
		if chromium.err == nil {
			chromium.err = chromedp.Run(chromium.ctx) // the browser and its first tab
		}
	})
	if chromium.err != nil {
		return nil, nil, chromium.err
	}
	var id target.ID
	var bc cdp.BrowserContextID
	onBrowser := func(ctx context.Context) context.Context {
		return cdp.WithExecutor(ctx, chromedp.FromContext(ctx).Browser)
	}
	err = chromedp.Run(chromium.ctx, chromedp.ActionFunc(func(ctx context.Context) error {
		var err error
		if bc, err = target.CreateBrowserContext().Do(onBrowser(ctx)); err != nil {
			return err
		}
		id, err = target.CreateTarget("about:blank").WithBrowserContextID(bc).WithNewWindow(true).Do(onBrowser(ctx))
		return err
	}))
	if err != nil {
		return nil, nil, fmt.Errorf("opening a window in the shared Chromium: %w", err)
	}
	tab, cancel := chromedp.NewContext(chromium.ctx, chromedp.WithTargetID(id))
	return tab, func() {
		cancel()
		chromedp.Run(chromium.ctx, chromedp.ActionFunc(func(ctx context.Context) error {
			return target.DisposeBrowserContext(bc).Do(onBrowser(ctx))
		}))
	}, nil
}

func (b *browser) run(t testing.TB, actions ...chromedp.Action) {
	t.Helper()
	for i, a := range flatten(actions) {
		if err := chromedp.Run(b.ctx, a); err != nil {
			b.mu.Lock()
			defer b.mu.Unlock()
			t.Fatalf("step %d (%s): %v (script errors: %q)", i+1, describe(a), err, b.errors)
		}
	}
}

// flatten runs nested task lists step by step, so a failure names the
// step that failed, not only the list.
func flatten(actions []chromedp.Action) []chromedp.Action {
	var out []chromedp.Action
	for _, a := range actions {
		if ts, ok := a.(chromedp.Tasks); ok {
			out = append(out, flatten(ts)...)
			continue
		}
		out = append(out, a)
	}
	return out
}

// describe names an action for a failure message.
func describe(a chromedp.Action) string {
	return strings.TrimPrefix(fmt.Sprintf("%T", a), "*")
}

// eval evaluates a JavaScript expression into out, awaiting a promise.
func eval(expr string, out any) chromedp.Action {
	return chromedp.Evaluate(expr, out, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) })
}

// check fails the test for script errors, requests off the server and
// answers of 404 (a favicon.ico, say).
func (b *browser) check(t *testing.T) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, e := range b.errors {
		t.Errorf("script error: %s", e)
	}
	for _, u := range b.outside {
		t.Errorf("a request left the server: %s", u)
	}
	for _, u := range b.notFound {
		t.Errorf("404 for %s", u)
	}
}

// ready navigates to url and waits until the map script has its data in
// (syriamap:ready; a first visit's photos are drawn before, from the
// view's clusters: syriamap:first-render, the benchmarks' mark) and the
// page has settled: the list, which follows the map after a pause, is
// drawn.
func ready(url string) chromedp.Tasks {
	return chromedp.Tasks{
		chromedp.Navigate(url),
		chromedp.WaitReady(`#explorer`, chromedp.ByQuery),
		chromedp.Poll(`performance.getEntriesByName("syriamap:ready").length > 0`, nil, chromedp.WithPollingTimeout(30*time.Second)),
		settled(),
	}
}

// press clicks the element sel by its own click() once it is there: in
// this page a mouse at its place may land on what moves over it (the
// photo's popup panning the map), and a click that missed hung a test
// for its whole two minutes under load.
func press(sel string) chromedp.Action {
	return chromedp.Poll(fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e) return false; e.click(); return true; })()`, sel), nil,
		chromedp.WithPollingTimeout(20*time.Second))
}

// waitText waits until the element's text contains want.
func waitText(sel, want string) chromedp.Action {
	return chromedp.Poll(fmt.Sprintf(`(document.querySelector(%q)?.textContent || "").includes(%q)`, sel, want), nil,
		chromedp.WithPollingTimeout(10*time.Second))
}

var countRe = regexp.MustCompile(`^([\d,]+) of ([\d,]+) photos`)

func shownCount(t *testing.T, text string) int {
	t.Helper()
	m := countRe.FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("count %q is not 'N of M photos'", text)
	}
	n, _ := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
	return n
}

// apiCount is how many photos the API selects for a query.
func apiCount(t *testing.T, ts *httptest.Server, query string) int {
	t.Helper()
	_, body := get(t, ts, "/api/photos.geojson"+query)
	return len(features(t, body).Features)
}

// monthX returns the page x of the middle of month i (0 = January 2012)
// of the 72-month timeline, and the y of its middle.
func monthX(t *testing.T, b *browser) (x func(i int) float64, y float64) {
	var box []float64
	b.run(t, eval(`(() => { const r = document.querySelector("svg.timeline-chart").getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()`, &box))
	bw := (box[2] - 40) / 72 // the count axis is 40 px wide
	return func(i int) float64 { return box[0] + 40 + bw*(float64(i)+0.5) }, box[1] + box[3]/2
}

func drag(x0, x1, y float64) chromedp.Tasks {
	return chromedp.Tasks{
		chromedp.MouseEvent(input.MousePressed, x0, y, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.MouseMoved, (x0+x1)/2, y, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.MouseMoved, x1, y, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.MouseReleased, x1, y, chromedp.ButtonLeft),
		settled(), // the window's photos counted and drawn
	}
}

// TestBrowserExplorer brushes, goes back and forward, downloads, plays and
// steps with keys.
func TestBrowserExplorer(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	_, ts, _ := newTestServer(t)
	b := newBrowser(t, ts, 1440, 900)
	var count, label string
	var markers int
	b.run(t, ready(ts.URL+"/"),
		chromedp.Text(`[data-testid=count]`, &count, chromedp.ByQuery),
		chromedp.Text(`[data-testid=window]`, &label, chromedp.ByQuery),
		eval(`document.querySelectorAll(".leaflet-marker-pane .cluster, .leaflet-marker-pane .pm").length`, &markers))
	if !strings.HasPrefix(count, "18 of 18 photos") || !strings.HasPrefix(label, "January 2012 – December 2017") || markers == 0 {
		t.Errorf("first view: count %q, window %q, %d markers", count, label, markers)
	}

	// Brush a new window over 2016: the count, the markers and the URL follow.
	x, y := monthX(t, b)
	b.run(t, drag(x(48), x(59), y),
		chromedp.Text(`[data-testid=count]`, &count, chromedp.ByQuery),
		chromedp.Text(`[data-testid=window]`, &label, chromedp.ByQuery))
	var search string
	var onMap int // photos the map shows: cluster and spot counts, and single markers
	b.run(t, eval(`location.search`, &search),
		eval(`[...document.querySelectorAll(".leaflet-marker-pane .cluster span, .leaflet-marker-pane .pm.spot span")].reduce((n, e) => n + Number(e.textContent), 0) +
			document.querySelectorAll(".leaflet-marker-pane .pm:not(.spot)").length`, &onMap))
	_, body := get(t, ts, "/api/points.json?from=2016-01&to=2016-12")
	if placed := strings.Count(string(body), "\n[") - strings.Count(string(body), "null,null"); onMap != placed {
		t.Errorf("after brushing 2016 the map shows %d photos, %d are placed in the window", onMap, placed)
	}
	if !strings.HasPrefix(label, "January 2016 – December 2016") || !strings.Contains(search, "from=2016-01") || !strings.Contains(search, "to=2016-12") {
		t.Errorf("after brushing 2016: window %q, URL %q", label, search)
	}
	n := shownCount(t, count)
	if want := apiCount(t, ts, "?from=2016-01&to=2016-12"); n != want {
		t.Errorf("after brushing 2016 the page counts %d photos, the API %d", n, want)
	}

	// Back returns to the whole timeline, forward to 2016.
	b.run(t, eval(`history.back()`, nil), until(`document.querySelector("[data-testid=window]").textContent.startsWith("January 2012 – December 2017")`),
		chromedp.Text(`[data-testid=window]`, &label, chromedp.ByQuery))
	if !strings.HasPrefix(label, "January 2012 – December 2017") {
		t.Errorf("after back: window %q", label)
	}
	b.run(t, eval(`history.forward()`, nil), until(`document.querySelector("[data-testid=window]").textContent.startsWith("January 2016 – December 2016")`),
		chromedp.Text(`[data-testid=window]`, &label, chromedp.ByQuery))
	if !strings.HasPrefix(label, "January 2016 – December 2016") {
		t.Errorf("after forward: window %q", label)
	}

	// The download is exactly the selection; the view's only what is in view.
	var href, viewHref string
	b.run(t, chromedp.AttributeValue(`[data-testid=download-geojson]`, "href", &href, nil, chromedp.ByQuery),
		chromedp.AttributeValue(`[data-testid=download-view-geojson]`, "href", &viewHref, nil, chromedp.ByQuery))
	resp, body := get(t, ts, strings.TrimPrefix(href, ts.URL))
	if got := len(features(t, body).Features); got != n || resp.Header.Get("Content-Disposition") == "" {
		t.Errorf("the download %s has %d features, the page shows %d", href, got, n)
	}
	if !strings.Contains(viewHref, "bbox=") || !strings.Contains(viewHref, "from=2016-01") {
		t.Errorf("the view's download %s", viewHref)
	}

	// 6: Play on a fresh page (the window is everything) starts from the
	// first busy month (December 2012 in the samples, not the empty months
	// of 2012 before it), and keeps going.
	var pressed string
	b.run(t, ready(ts.URL+"/"),
		eval(`(() => { const s = document.querySelector("[data-testid=speed]"); s.value = "4"; s.dispatchEvent(new Event("change")); })()`, nil),
		chromedp.Click(`[data-testid=play]`, chromedp.ByQuery),
		until(`!document.querySelector("[data-testid=window]").textContent.includes("–")`), // a month at a time
		chromedp.AttributeValue(`[data-testid=play]`, "aria-pressed", &pressed, nil, chromedp.ByQuery),
		chromedp.Text(`[data-testid=window]`, &label, chromedp.ByQuery),
		chromedp.Click(`[data-testid=play]`, chromedp.ByQuery))
	if pressed != "true" || strings.Contains(label, "–") || !strings.Contains(label, "2013") && !strings.HasPrefix(label, "December 2012") {
		t.Errorf("play on a fresh page: pressed %q, window %q (want one month from December 2012 on)", pressed, label)
	}

	// 10: keys set a year or a month at once; arrows step a month.
	b.run(t, ready(ts.URL+"/?from=2014-03&to=2016-06"),
		chromedp.Focus(`[data-testid=brush]`, chromedp.ByQuery),
		chromedp.KeyEvent("y"), until(`document.querySelector("[data-testid=window]").textContent.startsWith("January 2014 – December 2014")`),
		chromedp.Text(`[data-testid=window]`, &label, chromedp.ByQuery))
	if !strings.HasPrefix(label, "January 2014 – December 2014") {
		t.Errorf("after Y: %q", label)
	}
	b.run(t, chromedp.KeyEvent("m"), chromedp.KeyEvent("\u0303"), // M, ArrowRight
		until(`document.querySelector("[data-testid=window]").textContent.startsWith("February 2014 ·")`),
		chromedp.Text(`[data-testid=window]`, &label, chromedp.ByQuery))
	if !strings.HasPrefix(label, "February 2014 ·") {
		t.Errorf("after M and ArrowRight: %q", label)
	}
	b.check(t)
}

// TestBrowserFiltersKeepTheView chooses filters in the page: the window,
// the view and the chosen photo stay (1), several values can be chosen,
// every value is there with counts for the window (7), and nothing
// reloads.
func TestBrowserFiltersKeepTheView(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	_, ts, _ := newTestServer(t)
	b := newBrowser(t, ts, 1440, 900)
	_, body := get(t, ts, "/api/photos.geojson?place=ocha:C2320")
	zamalka := features(t, body).Features[0].ID.(string)
	b.run(t, ready(ts.URL+"/?from=2016-01&to=2016-12&map=9/33.5/36.35&photo="+zamalka),
		eval(`window.stillHere = true`, nil),
		press(`[data-testid=facet-agency]`),
		chromedp.Poll(`document.querySelectorAll("[data-testid=facet-agency-options] input").length > 0`, nil,
			chromedp.WithPollingTimeout(30*time.Second)))
	// The counts are those of the window: 2016.
	var counts map[string]int
	b.run(t, eval(`Object.fromEntries([...document.querySelectorAll("[data-testid=facet-agency-options] li")].map((li) =>
		[li.querySelector(".facet-value").textContent, Number(li.querySelector(".facet-count").textContent.replace(/,/g, ""))]))`, &counts))
	if counts["Reuters"] != apiCount(t, ts, "?from=2016-01&to=2016-12&agency=Reuters") || counts["AFP"] != apiCount(t, ts, "?from=2016-01&to=2016-12&agency=AFP") {
		t.Errorf("agency counts %v, not those of 2016", counts)
	}
	var search, count, label string
	var stillHere bool
	// Wait for the page to have applied both choices (under load the
	// second lands later), then read what it shows.
	want := apiCount(t, ts, "?from=2016-01&to=2016-12&agency=Reuters&agency=AFP")
	b.run(t, press(`[data-testid=facet-agency-options] input[value=Reuters]`),
		press(`[data-testid=facet-agency-options] input[value=AFP]`),
		chromedp.Poll(fmt.Sprintf(`decodeURIComponent(location.search).includes("agency=AFP") &&
			document.querySelector("[data-testid=count]").textContent.trim().startsWith("%d of")`, want), nil,
			chromedp.WithPollingTimeout(20*time.Second)),
		eval(`decodeURIComponent(location.search)`, &search),
		eval(`window.stillHere === true`, &stillHere),
		chromedp.Text(`[data-testid=count]`, &count, chromedp.ByQuery),
		chromedp.Text(`[data-testid=window]`, &label, chromedp.ByQuery))
	for _, want := range []string{"agency=Reuters", "agency=AFP", "from=2016-01", "to=2016-12", "map=9/", "photo="} {
		if !strings.Contains(search, want) {
			t.Errorf("after choosing two agencies the URL %q lacks %s", search, want)
		}
	}
	if !stillHere {
		t.Error("choosing a filter reloaded the page")
	}
	if shownCount(t, count) != want || !strings.HasPrefix(label, "January 2016") {
		t.Errorf("count %q (want %d), window %q", count, want, label)
	}
	// Apply, the server's button, keeps it all too.
	b.run(t, chromedp.KeyEvent("\x1b"), // closes the list
		press(`[data-testid=apply]`), until(`decodeURIComponent(location.search).includes("from=2016-01") && location.search.includes("map=9/")`),
		eval(`decodeURIComponent(location.search)`, &search), eval(`window.stillHere === true`, &stillHere))
	if !stillHere || !strings.Contains(search, "from=2016-01") || !strings.Contains(search, "map=9/") {
		t.Errorf("after Apply: reloaded %v, URL %q", !stillHere, search)
	}
	// Typing finds a place among all of them.
	var places []string
	b.run(t, press(`[data-testid=facet-place]`),
		chromedp.WaitVisible(`[data-testid=facet-place-search]`, chromedp.ByQuery),
		chromedp.SendKeys(`[data-testid=facet-place-search]`, "zamal", chromedp.ByQuery),
		until(`[...document.querySelectorAll("[data-testid=facet-place-options] .facet-value")].map((e) => e.textContent).join() === "Zamalka"`),
		eval(`[...document.querySelectorAll("[data-testid=facet-place-options] .facet-value")].map((e) => e.textContent)`, &places))
	if len(places) != 1 || places[0] != "Zamalka" {
		t.Errorf("typing zamal found %q", places)
	}
	b.check(t)
}

// TestBrowserPopupAndList opens photos: a month-dated photo says its
// month, not a day (2); a click on a marker never scrolls the page (3);
// photos not on the map are listed and counted apart (8).
func TestBrowserPopupAndList(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	_, ts, a := newTestServer(t)
	dir := t.TempDir()
	month := filepath.Join(dir, "month.txt")
	os.WriteFile(month, []byte("Fighters walk in Manbij, Syria, June 2016. REUTERS/Rodi Said\n"), 0o644)
	if _, err := a.ImportFile(context.Background(), month, "", nil); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, ts, 1440, 900)
	_, body := get(t, ts, "/api/photos.geojson?q=Manbij")
	id := features(t, body).Features[0].ID.(string)
	var date string
	b.run(t, ready(ts.URL+"/?photo="+id),
		chromedp.WaitVisible(`[data-testid=popup]`, chromedp.ByQuery),
		chromedp.Text(`[data-testid=popup-date]`, &date, chromedp.ByQuery))
	if date != "June 2016" {
		t.Errorf("the popup of a photo dated June 2016 says %q", date)
	}

	// 3: the page stays where it is when a marker is clicked, with the
	// list scrolled down.
	var before, after float64
	b.run(t, ready(ts.URL+"/?map=13/33.5247/36.3536"),
		eval(`window.scrollTo(0, 300); window.scrollY`, &before),
		chromedp.WaitVisible(`.leaflet-marker-pane .pm`, chromedp.ByQuery),
		chromedp.Click(`.leaflet-marker-pane .pm:not(.spot)`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=popup]`, chromedp.ByQuery),
		settled(), // the popup opened, the map panned to it
		eval(`window.scrollY`, &after))
	if math.Abs(after-before) > 1 {
		t.Errorf("a click on a marker scrolled the page from %v to %v", before, after)
	}

	// 8: the photo with no place is listed under "Not on the map", and
	// the count says so.
	var count, scope string
	var unplaced []string
	b.run(t, ready(ts.URL+"/"),
		chromedp.WaitVisible(`[data-testid=unplaced]`, chromedp.ByQuery),
		chromedp.Text(`[data-testid=count]`, &count, chromedp.ByQuery),
		chromedp.Text(`[data-testid=list-scope]`, &scope, chromedp.ByQuery),
		eval(`[...document.querySelectorAll("[data-testid=unplaced-list] [data-testid=caption]")].map((e) => e.textContent)`, &unplaced))
	if !strings.Contains(count, "1 not on the map") || len(unplaced) != 1 || !strings.Contains(unplaced[0], "homemade armored vehicle") {
		t.Errorf("unplaced: count %q, listed %q", count, unplaced)
	}
	if !strings.Contains(scope, "follows the map") {
		t.Errorf("the list does not say it follows the map: %q", scope)
	}
	b.check(t)
}

// TestBrowserStackedSpots opens a spot where several photos share a
// point: its count shows on the marker, and a click lists them (4).
func TestBrowserStackedSpots(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	_, ts, _ := newTestServer(t)
	b := newBrowser(t, ts, 1440, 900)
	var spot, title string
	var rows int
	b.run(t, ready(ts.URL+"/?map=15/35.6147/36.5603"),
		chromedp.WaitVisible(`.leaflet-marker-pane .pm.spot`, chromedp.ByQuery),
		chromedp.Text(`.leaflet-marker-pane .pm.spot span`, &spot, chromedp.ByQuery),
		chromedp.Click(`.leaflet-marker-pane .pm.spot`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=spot-panel]`, chromedp.ByQuery),
		waitText(`[data-testid=spot-title]`, "Kafr Nabl"),
		chromedp.Text(`[data-testid=spot-title]`, &title, chromedp.ByQuery),
		eval(`document.querySelectorAll("[data-testid=spot-list] [data-testid=photo-row]").length`, &rows))
	if spot != "2" || title != "2 photos at Kafr Nabl" || rows != 2 {
		t.Errorf("the Kafr Nabl spot: marker %q, panel %q with %d rows", spot, title, rows)
	}
	// Each row opens its photo; Escape closes the panel.
	var hidden bool
	b.run(t, chromedp.Click(`[data-testid=spot-list] [data-testid=show-on-map]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=popup]`, chromedp.ByQuery),
		chromedp.KeyEvent("\x1b"), until(`document.querySelector("[data-testid=spot-panel]").hidden`),
		eval(`document.querySelector("[data-testid=spot-panel]").hidden`, &hidden))
	if !hidden {
		t.Error("Escape left the panel open")
	}
	b.check(t)
}

// TestBrowserMapReads checks the map offline: no country drawn as sea,
// land and sea told apart, country, governorate and place names, the
// quarters of a city at zoom 13, a scale bar and a legend (5, 12).
func TestBrowserMapReads(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	_, ts, _ := newTestServer(t)
	b := newBrowser(t, ts, 1440, 900)
	var countries []string
	var contrast float64
	b.run(t, ready(ts.URL+"/?map=5/33/40"),
		eval(`[...document.querySelectorAll(".country-label")].map((e) => e.textContent)`, &countries),
		eval(`(() => {
			const lum = (c) => { const [r, g, b] = c.match(/\d+/g).slice(0, 3).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
			const sea = lum(getComputedStyle(document.querySelector("#map")).backgroundColor);
			const land = lum(getComputedStyle(document.querySelector(".leaflet-overlay-pane path")).fill);
			return (Math.max(sea, land) + 0.05) / (Math.min(sea, land) + 0.05);
		})()`, &contrast))
	for _, want := range []string{"Iran", "Saudi Arabia", "Egypt", "Turkey", "Syria"} {
		if !strings.Contains(strings.Join(countries, ","), want) {
			t.Errorf("no %s on the map (countries named: %q)", want, countries)
		}
	}
	if contrast < 1.5 {
		t.Errorf("land and sea differ by %.2f:1", contrast)
	}
	var govs, labels []string
	var scale, legend int
	b.run(t, ready(ts.URL+"/?map=7/35/38"),
		eval(`[...document.querySelectorAll(".gov-label")].map((e) => e.textContent)`, &govs),
		eval(`document.querySelectorAll(".leaflet-control-scale").length`, &scale),
		eval(`document.querySelectorAll("[data-testid=legend] .legend-row").length`, &legend))
	// One name everywhere: the filters' and the gazetteer's.
	if g := strings.Join(govs, ","); !strings.Contains(g, "Idlib") || !strings.Contains(g, "Rif Dimashq") || strings.Contains(g, "Idleb") {
		t.Errorf("governorate labels %q", govs)
	}
	if scale != 1 || legend < 5 {
		t.Errorf("%d scale bars, %d legend rows", scale, legend)
	}
	// Zoomed into Aleppo, its quarters are named, and the map is not blank.
	var paths int
	b.run(t, ready(ts.URL+"/?map=14/36.2/37.15"),
		chromedp.Poll(`document.querySelectorAll(".place-label.neighbourhood").length > 3`, nil, chromedp.WithPollingTimeout(10*time.Second)),
		eval(`[...document.querySelectorAll(".place-label")].map((e) => e.textContent)`, &labels),
		eval(`document.querySelectorAll(".leaflet-overlay-pane path").length`, &paths))
	if len(labels) < 5 || paths == 0 {
		t.Errorf("at zoom 14 over Aleppo: %d labels (%q), %d shapes", len(labels), labels, paths)
	}
	b.check(t)
}

// TestBrowserTimelineReads measures the timeline as drawn: labels at a
// readable size, a count axis, bars of 3:1 contrast, a month's count on
// hover (9), and edges with a 24 px grip (11).
func TestBrowserTimelineReads(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	_, ts, _ := newTestServer(t)
	for _, size := range [][2]int{{1440, 900}, {375, 812}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			b := newBrowser(t, ts, size[0], size[1])
			var m map[string]float64
			b.run(t, ready(ts.URL+"/?from=2016-01&to=2016-12"), eval(`(() => {
				const svg = document.querySelector("svg.timeline-chart");
				const year = svg.querySelector("text.year").getBoundingClientRect();
				const axis = svg.querySelectorAll("text.axis").length;
				const lum = (c) => { const [r, g, b] = c.match(/\d+/g).slice(0, 3).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
				const bar = lum(getComputedStyle(svg.querySelector("rect.bar")).fill);
				const grip = svg.querySelector("rect.grip").getBoundingClientRect();
				return { yearHeight: year.height, yearWidth: year.width, axis, contrast: 1.05 / (bar + 0.05), grip: grip.width };
			})()`, &m))
			if m["yearHeight"] < 10 || m["yearWidth"] > 60 || m["axis"] < 2 || m["contrast"] < 3 || m["grip"] < 24 {
				t.Errorf("timeline as drawn: %v", m)
			}
			if size[0] < 1000 {
				return
			}
			x, y := monthX(t, b)
			var tip string
			b.run(t, chromedp.MouseEvent(input.MouseMoved, x(53), y), until(`document.querySelector("[data-testid=chart-tip]")?.textContent.startsWith("June 2016: ")`),
				chromedp.Text(`[data-testid=chart-tip]`, &tip, chromedp.ByQuery))
			if want := fmt.Sprintf("June 2016: %d photo", apiCount(t, ts, "?from=2016-06&to=2016-06")); !strings.HasPrefix(tip, want) {
				t.Errorf("hover over June 2016: %q, want %q…", tip, want)
			}
			b.check(t)
		})
	}
}

// TestBrowserKeyboardMap opens markers and clusters from the keyboard (10).
func TestBrowserKeyboardMap(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	_, ts, _ := newTestServer(t)
	b := newBrowser(t, ts, 1440, 900)
	var zoomBefore, zoomAfter float64
	var focusable bool
	b.run(t, ready(ts.URL+"/?map=7/35/38"),
		eval(`Number(document.querySelector("#map").dataset.zoom || 7)`, &zoomBefore),
		eval(`document.querySelectorAll(".leaflet-marker-pane [tabindex='0']").length === 1`, &focusable))
	b.run(t, chromedp.Focus(`.cluster`, chromedp.ByQuery),
		chromedp.KeyEvent("\r"),
		until(fmt.Sprintf(`Number(document.querySelector("#map").dataset.zoom) > %v`, zoomBefore)),
		eval(`Number(document.querySelector("#map").dataset.zoom)`, &zoomAfter))
	if !focusable || zoomAfter <= zoomBefore {
		t.Errorf("Enter on a cluster: focusable %v, zoom %v → %v", focusable, zoomBefore, zoomAfter)
	}
	var open, closed bool
	b.run(t, ready(ts.URL+"/?map=13/33.5247/36.3536"),
		chromedp.WaitVisible(`.leaflet-marker-pane .pm:not(.spot)`, chromedp.ByQuery),
		chromedp.Focus(`.leaflet-marker-pane .pm:not(.spot)`, chromedp.ByQuery),
		chromedp.KeyEvent(" "),
		chromedp.WaitVisible(`[data-testid=popup]`, chromedp.ByQuery),
		eval(`!!document.querySelector("[data-testid=popup]")`, &open),
		chromedp.KeyEvent("\x1b"),
		chromedp.Poll(`!document.querySelector("[data-testid=popup]")`, nil, chromedp.WithPollingTimeout(5*time.Second)),
		eval(`!document.querySelector("[data-testid=popup]")`, &closed))
	if !open || !closed {
		t.Errorf("Space opened the popup: %v; Escape closed it: %v", open, closed)
	}
	b.check(t)
}

// TestBrowserSmallScreen checks the explorer at 375 px: nothing is wider
// than the screen; the list and a chosen photo are a sheet over the map,
// and choosing a photo does not move the page (3, 11).
func TestBrowserSmallScreen(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	_, ts, _ := newTestServer(t)
	b := newBrowser(t, ts, 375, 812)
	var widths map[string]float64
	b.run(t, ready(ts.URL+"/"),
		eval(`(() => {
			const w = (s) => document.querySelector(s).getBoundingClientRect().width;
			return { page: document.documentElement.scrollWidth, map: w("#map"), timeline: w("svg.timeline-chart"), handle: w("[data-testid=sheet-handle]"), play: w("[data-testid=play]") };
		})()`, &widths))
	if widths["page"] > 375 {
		t.Errorf("the page is %v px wide at 375", widths["page"])
	}
	for _, k := range []string{"map", "timeline", "handle"} {
		if widths[k] < 300 || widths[k] > 375 {
			t.Errorf("%s is %v px wide at 375", k, widths[k])
		}
	}
	if widths["play"] < 40 {
		t.Errorf("the play button is %v px wide", widths["play"])
	}
	var before, after float64
	var sheetOpen bool
	var mapTop float64
	b.run(t, ready(ts.URL+"/?map=13/33.5247/36.3536"),
		eval(`window.scrollY`, &before),
		chromedp.WaitVisible(`.leaflet-marker-pane .pm:not(.spot)`, chromedp.ByQuery),
		chromedp.Click(`.leaflet-marker-pane .pm:not(.spot)`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=selected-card] [data-testid=popup]`, chromedp.ByQuery),
		eval(`window.scrollY`, &after),
		eval(`document.querySelector("#side").classList.contains("open")`, &sheetOpen),
		eval(`document.querySelector("#map").getBoundingClientRect().top`, &mapTop))
	if math.Abs(after-before) > 1 || !sheetOpen || mapTop < -1 {
		t.Errorf("choosing a photo on a phone: page scrolled %v → %v, sheet open %v, map top %v", before, after, sheetOpen, mapTop)
	}
	b.check(t)
}

// TestBrowserServerClusters runs the explorer as it runs over a large
// archive, where the server clusters each view (here forced by a limit of
// one point).
func TestBrowserServerClusters(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	_, _, a := newTestServer(t)
	s, err := httpapi.New(a, httpapi.Options{PointsLimit: 1})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	b := newBrowser(t, ts, 1440, 900)
	var count string
	var markers int
	b.run(t, ready(ts.URL+"/"),
		chromedp.Text(`[data-testid=count]`, &count, chromedp.ByQuery),
		eval(`document.querySelectorAll(".leaflet-marker-pane .cluster, .leaflet-marker-pane .pm").length`, &markers))
	if !strings.HasPrefix(count, "18 of 18 photos") || markers == 0 {
		t.Errorf("first view: count %q, %d markers", count, markers)
	}
	want := apiCount(t, ts, "?from=2016-01&to=2016-12")
	var popup string
	b.run(t, ready(ts.URL+"/?from=2016-01&to=2016-12&map=9/33.5/36.35"),
		chromedp.Poll(`!document.querySelector("[data-testid=count]").textContent.startsWith("18 of")`, nil, chromedp.WithPollingTimeout(10*time.Second)),
		chromedp.Text(`[data-testid=count]`, &count, chromedp.ByQuery),
		chromedp.WaitVisible(`.leaflet-marker-pane .pm`, chromedp.ByQuery),
		chromedp.Click(`.leaflet-marker-pane .pm`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=popup]`, chromedp.ByQuery),
		chromedp.Text(`[data-testid=popup] .popup-caption`, &popup, chromedp.ByQuery))
	if shownCount(t, count) != want || len(popup) < 20 {
		t.Errorf("2016: count %q (the API has %d), popup %q", count, want, popup)
	}
	// At the last zooms a cluster lists its photos.
	var title string
	b.run(t, ready(ts.URL+"/?map=15/35.6147/36.5603"),
		chromedp.WaitVisible(`.cluster`, chromedp.ByQuery),
		chromedp.Click(`.cluster`, chromedp.ByQuery),
		waitText(`[data-testid=spot-title]`, "Kafr Nabl"),
		chromedp.Text(`[data-testid=spot-title]`, &title, chromedp.ByQuery))
	if title != "2 photos at Kafr Nabl" {
		t.Errorf("the server's Kafr Nabl cluster lists %q", title)
	}
	b.check(t)
}

// TestBrowserPages looks at the photo and about pages: no errors, the
// attribution as HTML with links, an icon (12).
func TestBrowserPages(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	_, ts, _ := newTestServer(t)
	b := newBrowser(t, ts, 1024, 768)
	_, body := get(t, ts, "/api/photos.geojson?place=ocha:C2320")
	var links int
	b.run(t, chromedp.Navigate(features(t, body).Features[0].Properties.MustString("url", "")),
		chromedp.WaitVisible(`[data-testid=place-map].leaflet-container path`, chromedp.ByQuery))
	b.run(t, chromedp.Navigate(ts.URL+"/about"), chromedp.WaitVisible(`table`, chromedp.ByQuery),
		eval(`document.querySelectorAll("table a[href^='http']").length`, &links))
	if links < 5 {
		t.Errorf("the about page links %d sources", links)
	}
	b.run(t, ready(ts.URL+"/"))
	resp, _ := get(t, ts, "/favicon.ico") // redirected to the icon
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/svg+xml" || !strings.Contains(resp.Request.URL.Path, "/assets/favicon.") {
		t.Errorf("/favicon.ico: %s %s at %s", resp.Status, resp.Header.Get("Content-Type"), resp.Request.URL)
	}
	b.check(t)
}

// TestBrowserAccessibility runs axe-core (npm, for the tests only) on
// every kind of page, signed out and signed in, at 1440×900, 1024×768 and
// 375×812, in English, and in Arabic at the first and last: no serious
// or critical violations (issues 26 and 31).
func TestBrowserAccessibility(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	axe := axeScript(t)
	e := newEditorServer(t, httpapi.Options{})
	zamalka := e.photoID(t, "?place=ocha:C2320")
	pages := []string{"/", "/photos/" + zamalka, "/places/ocha:C2320", "/about", "/review", "/review/photos/" + zamalka,
		"/review/log", "/ogc?f=html", "/ogc/collections/photos/items?f=html&limit=10", "/?agency=Reuters&from=2016-01&to=2016-12",
		// The events layer on, its legend shown (issue 68), an event's
		// page, the stories.
		"/?events=1", "/events/ucdp-ged/214808", "/stories"}
	// An editor's pages alone (signed out they send to the sign-in).
	editors := []string{"/upload", "/review/second-looks", "/review/agreement"}
	// Each size and language in a browser of its own, in parallel.
	for _, size := range [][2]int{{1440, 900}, {1024, 768}, {375, 812}} {
		langs := []string{"en", "ar"}
		if size[0] == 1024 {
			langs = langs[:1]
		}
		for _, lang := range langs {
			t.Run(fmt.Sprintf("%dx%d-%s", size[0], size[1], lang), func(t *testing.T) {
				t.Parallel()
				b := newBrowser(t, e.ts, size[0], size[1])
				sweep := func(who string, pages []string) {
					for _, page := range pages {
						sep := map[bool]string{true: "&", false: "?"}[strings.Contains(page, "?")]
						for _, v := range axeViolations(t, b, axe, e.ts.URL+page+sep+"lang="+lang) {
							t.Errorf("%s, %s: %s", who, page, v)
						}
					}
				}
				sweep("signed out", append(pages, "/signin"))
				signIn(t, b, e)
				sweep("signed in", append(pages, editors...))
			})
		}
	}
}

// axeScript is axe-core from assets' pinned packages; without it the
// test is skipped, except under CI, where it fails.
func axeScript(t *testing.T) string {
	t.Helper()
	axe, err := os.ReadFile(filepath.Join("..", "..", "..", "assets", "node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("axe-core is not installed (cd assets && npm ci): %v", err)
		}
		t.Skipf("axe-core is not installed (cd assets && npm ci): %v", err)
	}
	return string(axe)
}

// axeViolations opens url and returns what axe-core finds serious or
// critical there, each with up to three of the elements it concerns.
func axeViolations(t *testing.T, b *browser, axe, url string) []string {
	t.Helper()
	// Once the page has loaded, and an explorer has drawn its map and
	// list (its ready mark), and a moment more for what follows them: not
	// a fixed second a page (a hundred pages a run).
	b.run(t, chromedp.Navigate(url),
		chromedp.Poll(`document.readyState === "complete" && (!document.getElementById("explorer") || performance.getEntriesByName("syriamap:ready").length > 0)`,
			nil, chromedp.WithPollingTimeout(30*time.Second)),
		settled())
	return axeHere(t, b, axe)
}

// axeHere is axeViolations on the page the browser shows (one a form's
// POST answered, which no address opens).
func axeHere(t *testing.T, b *browser, axe string) []string {
	t.Helper()
	var violations []string
	b.run(t, eval(axe, nil),
		eval(`axe.run(document, { resultTypes: ["violations"] }).then((r) => r.violations
			.filter((v) => v.impact === "serious" || v.impact === "critical")
			.map((v) => v.impact + " " + v.id + ": " + v.help + " — " + v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join("; ")))`, &violations))
	return violations
}

// TestBrowserScreenshots writes the screenshots of `make screenshots`: the
// explorer, a stacked spot's panel, a photo page and the about page at
// 1440×900, 1024×768 and 375×812. It runs only when asked for.
func TestBrowserScreenshots(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	if os.Getenv("SYRIAMAP_SCREENSHOTS") == "" {
		t.Skip("make screenshots sets SYRIAMAP_SCREENSHOTS")
	}
	_, ts, _ := newTestServer(t)
	_, body := get(t, ts, "/api/photos.geojson?place=ocha:C2320")
	photoURL := features(t, body).Features[0].Properties.MustString("url", "")
	for _, size := range [][2]int{{1440, 900}, {1024, 768}, {375, 812}} {
		b := newBrowser(t, ts, size[0], size[1])
		name := func(page string) string { return fmt.Sprintf("%s-%dx%d.png", page, size[0], size[1]) }
		b.run(t, ready(ts.URL+"/"))
		shoot(t, b, name("explorer"))
		b.run(t, ready(ts.URL+"/?map=15/35.6147/36.5603"), chromedp.Click(`.leaflet-marker-pane .pm.spot`, chromedp.ByQuery),
			waitText(`[data-testid=spot-title]`, "Kafr Nabl"))
		shoot(t, b, name("spot-panel"))
		b.run(t, chromedp.Navigate(photoURL), chromedp.WaitVisible(`[data-testid=place-map].leaflet-container path`, chromedp.ByQuery))
		shoot(t, b, name("photo"))
		b.run(t, chromedp.Navigate(ts.URL+"/about"), chromedp.WaitVisible(`table`, chromedp.ByQuery))
		shoot(t, b, name("about"))
		b.check(t)
	}
}

// shoot writes a full-page screenshot to $SYRIAMAP_SCREENSHOTS (make
// screenshots), if set.
func shoot(t *testing.T, b *browser, name string) {
	dir := os.Getenv("SYRIAMAP_SCREENSHOTS")
	if dir == "" {
		return
	}
	var png []byte
	b.run(t, chromedp.FullScreenshot(&png, 100))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", filepath.Join(dir, name))
}

// TestBrowserReview signs in, puts a photo at a point clicked on the
// review map and finds it there on the explorer and in its history,
// confirms a group of photos with a key, signs out, and is refused.
func TestBrowserReview(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	e := newEditorServer(t, httpapi.Options{})
	b := newBrowser(t, e.ts, 1440, 900)
	zamalka := e.photoID(t, "?place=ocha:C2320")
	var loc string
	b.run(t, chromedp.Navigate(e.ts.URL+"/signin"),
		chromedp.SendKeys(`input[name=name]`, "rana", chromedp.ByQuery),
		chromedp.SendKeys(`input[name=password]`, testPassword, chromedp.ByQuery),
		chromedp.Submit(`[data-testid=signin]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=review-groups]`, chromedp.ByQuery),
		eval(`location.pathname`, &loc))
	if loc != "/review" {
		t.Fatalf("after sign-in: %s", loc)
	}
	// A click on the review map sets the point; saving moves the photo.
	var lon, lat string
	b.run(t, chromedp.Navigate(e.ts.URL+"/review/photos/"+zamalka),
		chromedp.WaitVisible(`#review-map.leaflet-container`, chromedp.ByQuery),
		settled()) // the map drawn where it will stay
	var box []float64
	b.run(t, eval(`(() => { const r = document.querySelector("#review-map").getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()`, &box))
	b.run(t, chromedp.MouseClickXY(box[0]+box[2]/2+120, box[1]+box[3]/2-60),
		until(`document.querySelector("[data-testid=lon]").value !== ""`),
		chromedp.Value(`[data-testid=lon]`, &lon, chromedp.ByQuery),
		chromedp.Value(`[data-testid=lat]`, &lat, chromedp.ByQuery),
		chromedp.SendKeys(`[data-testid=note]`, "the smoke is east of the town", chromedp.ByQuery),
		leave(), chromedp.Click(`[data-testid=save-point]`, chromedp.ByQuery), arrived())
	// The photo is placed once the form's request is done.
	var f *geojson.Feature
	eventually(t, func() bool {
		_, body := get(t, e.ts, "/api/photos/"+zamalka+".geojson")
		f = features(t, []byte(`{"type":"FeatureCollection","features":[`+string(body)+`]}`)).Features[0]
		return f.Properties["placement"] == "corrected"
	})
	if lon == "" || f.Properties["placement"] != "corrected" || fmt.Sprintf("%.6f,%.6f", f.Point().Lon(), f.Point().Lat()) != lon+","+lat {
		b.check(t)
		t.Fatalf("the clicked point %s,%s; the photo %v at %v", lon, lat, f.Properties["placement"], f.Geometry)
	}
	// The explorer shows it at its new point; its page, the history.
	var there bool
	b.run(t, ready(e.ts.URL+"/?map=15/"+lat+"/"+lon),
		eval(`!!document.querySelector('.leaflet-marker-pane [data-id="`+zamalka+`"]')`, &there))
	if !there {
		t.Error("the explorer does not show the photo at its corrected point")
	}
	var history string
	b.run(t, chromedp.Navigate(e.ts.URL+"/photos/"+zamalka), chromedp.Text(`[data-testid=history]`, &history, chromedp.ByQuery))
	if !strings.Contains(history, "rana") || !strings.Contains(history, "the smoke is east of the town") {
		t.Errorf("history: %q", history)
	}
	// A group at once, with the key A: Kafr Nabl's two photos.
	kafranbel := e.photoID(t, "?place=gn:168661")
	var flash string
	b.run(t, chromedp.Navigate(e.ts.URL+"/review/photos/"+kafranbel+"?group=Kafranbel"),
		chromedp.WaitVisible(`[data-testid=apply-all]`, chromedp.ByQuery),
		chromedp.Click(`[data-testid=apply-all]`, chromedp.ByQuery),
		eval(`document.activeElement.blur()`, nil),
		chromedp.KeyEvent("a"),
		chromedp.WaitVisible(`[data-testid=flash]`, chromedp.ByQuery),
		chromedp.Text(`[data-testid=flash]`, &flash, chromedp.ByQuery))
	if !strings.HasPrefix(flash, "2 photos confirmed.") {
		t.Errorf("the group's confirmation: %q", flash)
	}
	_, body := get(t, e.ts, "/api/photos.geojson?place=gn:168661")
	for _, f := range features(t, body).Features {
		if f.Properties["placement"] != "confirmed" {
			t.Errorf("%v: %v", f.ID, f.Properties["placement"])
		}
	}
	// Signed out, the review page says so, and a form sent leads to
	// sign-in (and back to the form), changing nothing.
	var why, next string
	b.run(t, chromedp.Navigate(e.ts.URL+"/review"), chromedp.Click(`[data-testid=signout]`, chromedp.ByQuery),
		chromedp.WaitNotPresent(`[data-testid=signout]`, chromedp.ByQuery), // signed out
		chromedp.Navigate(e.ts.URL+"/review/photos/"+zamalka),
		chromedp.Text(`[data-testid=why-not]`, &why, chromedp.ByQuery),
		chromedp.Click(`[data-testid=confirm]`, chromedp.ByQuery),
		chromedp.WaitVisible(`input[name=password]`, chromedp.ByQuery),
		chromedp.Value(`input[name=next]`, &next, chromedp.ByQuery))
	if !strings.Contains(why, "Sign in") || !strings.HasPrefix(next, "/review/photos/"+zamalka) {
		t.Errorf("signed out: %q, then sign-in back to %q", why, next)
	}
	if p, _ := e.a.Photo(context.Background(), zamalka); p.Review != "corrected" {
		t.Errorf("the refused form changed the photo: %s", p.Review)
	}
	b.check(t)
}

// TestBrowserImageMetadata: photos imported from image files show their
// derivatives in the popup, a photo whose file disagrees with its caption
// has its ring on the map, and the explorer's "Image metadata" filter
// selects those.
func TestBrowserImageMetadata(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	ts, _ := imageServer(t, httpapi.Options{})
	_, body := get(t, ts, "/api/photos.geojson?agreement=disagrees")
	fc := features(t, body)
	if len(fc.Features) != 1 {
		t.Fatalf("%d photos disagree, want 1", len(fc.Features))
	}
	id := fc.Features[0].ID.(string)
	b := newBrowser(t, ts, 1440, 900)
	var src string
	var loaded, rings int
	b.run(t, ready(ts.URL+"/?photo="+id),
		chromedp.WaitVisible(`[data-testid=popup] img`, chromedp.ByQuery),
		chromedp.Poll(`document.querySelector("[data-testid=popup] img").naturalWidth > 0`, nil, chromedp.WithPollingTimeout(10*time.Second)),
		eval(`document.querySelector("[data-testid=popup] img").getAttribute("src")`, &src),
		eval(`document.querySelector("[data-testid=popup] img").naturalWidth`, &loaded),
		eval(`document.querySelectorAll(".leaflet-marker-pane .pm.meta-disagrees").length`, &rings))
	if !strings.Contains(src, "/images/") || !strings.HasSuffix(src, "/320.jpg") || loaded == 0 {
		t.Errorf("popup image %q, %d px wide", src, loaded)
	}
	if rings != 1 {
		t.Errorf("%d markers ringed as disagreeing, want 1", rings)
	}
	var count string
	b.run(t,
		eval(`(() => { const s = document.querySelector("[data-testid=agreement]"); s.value = "disagrees"; s.dispatchEvent(new Event("change")); return true })()`, nil),
		chromedp.Poll(`/^1 of /.test(document.querySelector("[data-testid=count]").textContent.trim())`, nil, chromedp.WithPollingTimeout(10*time.Second)),
		chromedp.Text(`[data-testid=count]`, &count, chromedp.ByQuery))
	if !strings.HasPrefix(count, "1 of ") {
		t.Errorf("with the filter: %q", count)
	}
	var url string
	b.run(t, eval(`location.search`, &url))
	if !strings.Contains(url, "agreement=disagrees") {
		t.Errorf("the filter is not in the address: %q", url)
	}
	b.check(t)
}

// TestBrowserAddPlace: on a photo's review page an editor clicks the map
// where a shelter the gazetteer lacks is, names it and saves: the archive
// has the place, with the editor's name, and the photo is there.
func TestBrowserAddPlace(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	e := newEditorServer(t, httpapi.Options{})
	b := newBrowser(t, e.ts, 1440, 900)
	zamalka := e.photoID(t, "?place=ocha:C2320")
	b.run(t, chromedp.Navigate(e.ts.URL+"/signin"),
		chromedp.SendKeys(`input[name=name]`, "rana", chromedp.ByQuery),
		chromedp.SendKeys(`input[name=password]`, testPassword, chromedp.ByQuery),
		chromedp.Submit(`[data-testid=signin]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=review-groups]`, chromedp.ByQuery),
		chromedp.Navigate(e.ts.URL+"/review/photos/"+zamalka),
		chromedp.WaitVisible(`#review-map.leaflet-container`, chromedp.ByQuery),
		settled()) // the map drawn where it will stay
	var box []float64
	b.run(t, eval(`(() => { const r = document.querySelector("#review-map").getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()`, &box))
	var lon, lat string
	b.run(t, chromedp.MouseClickXY(box[0]+box[2]/2+80, box[1]+box[3]/2-40),
		until(`document.querySelector("[data-testid=lon]").value !== ""`),
		chromedp.Value(`[data-testid=lon]`, &lon, chromedp.ByQuery),
		chromedp.Value(`[data-testid=lat]`, &lat, chromedp.ByQuery),
		chromedp.Click(`[data-testid=add-place] summary`, chromedp.ByQuery),
		chromedp.SetValue(`[data-testid=new-name]`, "Al-Nour Tent Shelter", chromedp.ByQuery),
		chromedp.SetValue(`[data-testid=new-kind]`, "camp", chromedp.ByQuery),
		chromedp.SendKeys(`[data-testid=new-source]`, "https://example.org/shelter-page", chromedp.ByQuery),
		chromedp.Click(`[data-testid=save-new-place]`, chromedp.ByQuery))
	// Adding a place rebuilds the geocoder's index: a moment, longer on a
	// busy machine.
	var p *gazetteer.Place
	eventually(t, func() bool {
		p = e.a.Gazetteer().ByID("arc:al-nour-tent-shelter")
		return p != nil
	})
	if p == nil || lon == "" {
		b.check(t)
		t.Fatalf("no place added (clicked %s,%s)", lon, lat)
	}
	if got := fmt.Sprintf("%.6f,%.6f", p.Point.Lon(), p.Point.Lat()); got != lon+","+lat || p.Kind != "camp" {
		t.Errorf("the place is a %s at %s, want a camp at the clicked %s,%s", p.Kind, got, lon, lat)
	}
	// The photo is placed there once the form's request is done, a
	// moment after the place is in the gazetteer.
	var f *geojson.Feature
	eventually(t, func() bool {
		_, body := get(t, e.ts, "/api/photos/"+zamalka+".geojson")
		f = features(t, []byte(`{"type":"FeatureCollection","features":[`+string(body)+`]}`)).Features[0]
		return f.Properties["placement"] == "corrected"
	})
	if f.Properties["place_id"] != "arc:al-nour-tent-shelter" || f.Properties["placement"] != "corrected" {
		t.Errorf("the photo is at %v (%v), want the added shelter", f.Properties["place_id"], f.Properties["placement"])
	}
	added, _ := e.a.AddedPlaces(context.Background())
	if len(added) != 1 || added[0].AddedBy != "rana" || added[0].Source != "https://example.org/shelter-page" {
		t.Errorf("added %+v", added)
	}
}

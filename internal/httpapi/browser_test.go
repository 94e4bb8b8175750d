package httpapi

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/syriamap/syriamap/internal/headless"
)

// browser starts headless Chromium for the test, recording what a person
// would notice: script errors and requests that leave the server. Without
// chromium the test is skipped, except under CI, where it fails.
type browser struct {
	ctx      context.Context
	mu       sync.Mutex
	errors   []string
	outside  []string
	serverAt string
}

func newBrowser(t testing.TB, ts *httptest.Server, width, height int) *browser {
	t.Helper()
	bctx, closeBrowser, err := headless.Start(context.Background(), width, height)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%v; CI must install it", err)
		}
		t.Skip(err)
	}
	ctx, cancelTimeout := context.WithTimeout(bctx, 90*time.Second)
	t.Cleanup(func() { cancelTimeout(); closeBrowser() })
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
			if !strings.HasPrefix(u, ts.URL) && !strings.HasPrefix(u, "data:") && !strings.HasPrefix(u, "blob:") {
				b.outside = append(b.outside, u)
			}
		}
	})
	if err := chromedp.Run(ctx, network.Enable(), runtime.Enable()); err != nil {
		t.Fatal(err)
	}
	return b
}

func (b *browser) run(t testing.TB, actions ...chromedp.Action) {
	t.Helper()
	if err := chromedp.Run(b.ctx, actions...); err != nil {
		b.mu.Lock()
		defer b.mu.Unlock()
		t.Fatalf("%v (script errors: %q)", err, b.errors)
	}
}

// check fails the test for script errors or requests off the server.
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
}

// ready navigates to url and waits until the map script has drawn the
// photos for the first time (it marks the moment for the benchmarks).
func ready(url string) chromedp.Tasks {
	return chromedp.Tasks{
		chromedp.Navigate(url),
		chromedp.Poll(`performance.getEntriesByName("syriamap:first-render").length > 0`, nil, chromedp.WithPollingTimeout(30*time.Second)),
	}
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

func TestBrowserExplorer(t *testing.T) {
	_, ts, _ := newTestServer(t)
	b := newBrowser(t, ts, 1280, 1000)
	var count, label string
	var markers int
	b.run(t, ready(ts.URL+"/"),
		chromedp.Text(`[data-testid=count]`, &count, chromedp.ByQuery),
		chromedp.Text(`[data-testid=window]`, &label, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelectorAll(".cluster, path.photo-marker").length`, &markers))
	if !strings.HasPrefix(count, "18 of 18 photos") || label != "January 2012 – December 2017" {
		t.Errorf("first view: count %q, window %q", count, label)
	}
	var clusters int
	b.run(t, chromedp.Evaluate(`document.querySelectorAll(".cluster").length`, &clusters))
	if clusters == 0 || markers == 0 {
		t.Errorf("%d clusters, %d markers and clusters for the samples", clusters, markers)
	}
	shoot(t, b, "explorer-desktop.png")

	// Brush a new window over 2016: the count, the markers and the URL follow.
	var box []float64
	b.run(t, chromedp.Evaluate(`(() => { const r = document.querySelector("svg.timeline-chart").getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()`, &box))
	x := func(month int) float64 { return box[0] + box[2]*(float64(month)+0.5)/72 } // 72 months, 2012–2017
	y := box[1] + box[3]/2
	b.run(t,
		chromedp.MouseEvent(input.MousePressed, x(48), y, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.MouseMoved, x(54), y, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.MouseMoved, x(59), y, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.MouseReleased, x(59), y, chromedp.ButtonLeft),
		chromedp.Sleep(400),
		chromedp.Text(`[data-testid=count]`, &count, chromedp.ByQuery),
		chromedp.Text(`[data-testid=window]`, &label, chromedp.ByQuery))
	var search string
	var onMap int // photos the map shows: cluster counts and single markers
	b.run(t, chromedp.Evaluate(`location.search`, &search),
		chromedp.Evaluate(`[...document.querySelectorAll(".cluster span")].reduce((n, e) => n + Number(e.textContent), 0) +
			document.querySelectorAll("path.photo-marker").length`, &onMap))
	n := shownCount(t, count)
	_, body := get(t, ts, "/api/points.json?from=2016-01&to=2016-12")
	if placed := strings.Count(string(body), "\n[") - strings.Count(string(body), "null,null"); onMap != placed {
		t.Errorf("after brushing 2016 the map shows %d photos, %d are placed in the window", onMap, placed)
	}
	if label != "January 2016 – December 2016" || !strings.Contains(search, "from=2016-01") || !strings.Contains(search, "to=2016-12") {
		t.Errorf("after brushing 2016: window %q, URL %q", label, search)
	}
	_, body = get(t, ts, "/api/photos.geojson?from=2016-01&to=2016-12")
	if want := len(features(t, body).Features); n != want {
		t.Errorf("after brushing 2016 the page counts %d photos, the API %d", n, want)
	}

	// Back returns to the whole timeline, forward to 2016.
	b.run(t, chromedp.Evaluate(`history.back()`, nil), chromedp.Sleep(300*time.Millisecond),
		chromedp.Text(`[data-testid=window]`, &label, chromedp.ByQuery))
	if label != "January 2012 – December 2017" {
		t.Errorf("after back: window %q", label)
	}
	b.run(t, chromedp.Evaluate(`history.forward()`, nil), chromedp.Sleep(300*time.Millisecond),
		chromedp.Text(`[data-testid=window]`, &label, chromedp.ByQuery))
	if label != "January 2016 – December 2016" {
		t.Errorf("after forward: window %q", label)
	}

	// The download is exactly the selection.
	var href string
	b.run(t, chromedp.AttributeValue(`[data-testid=downloads] a`, "href", &href, nil, chromedp.ByQuery))
	resp, body := get(t, ts, strings.TrimPrefix(href, ts.URL))
	if got := len(features(t, body).Features); got != n || resp.Header.Get("Content-Disposition") == "" {
		t.Errorf("the download %s has %d features, the page shows %d", href, got, n)
	}

	// A click on a marker opens its popup with the caption.
	var popup string
	b.run(t, ready(ts.URL+"/?map=13/33.5247/36.3536"),
		chromedp.WaitVisible(`path.photo-marker`, chromedp.ByQuery),
		chromedp.Click(`path.photo-marker`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=popup]`, chromedp.ByQuery),
		chromedp.Text(`[data-testid=popup] .popup-caption`, &popup, chromedp.ByQuery))
	if len(popup) < 20 {
		t.Errorf("popup caption %q", popup)
	}

	// Play slides the window forward.
	var before string
	b.run(t, ready(ts.URL+"/?from=2013-01&to=2013-03"),
		chromedp.Text(`[data-testid=window]`, &before, chromedp.ByQuery),
		chromedp.Evaluate(`(() => { const s = document.querySelector("[data-testid=speed]"); s.value = "4"; s.dispatchEvent(new Event("change")); })()`, nil),
		chromedp.Click(`[data-testid=play]`, chromedp.ByQuery),
		chromedp.Sleep(900*time.Millisecond),
		chromedp.Click(`[data-testid=play]`, chromedp.ByQuery),
		chromedp.Text(`[data-testid=window]`, &label, chromedp.ByQuery))
	if before != "January 2013 – March 2013" || label == before {
		t.Errorf("play: the window went from %q to %q", before, label)
	}

	// The arrow keys step the window a month.
	b.run(t, ready(ts.URL+"/?from=2014-01&to=2014-06"),
		chromedp.Focus(`[data-testid=brush]`, chromedp.ByQuery),
		chromedp.KeyEvent("\u0303"), // ArrowRight
		chromedp.Sleep(100),
		chromedp.Text(`[data-testid=window]`, &label, chromedp.ByQuery))
	if label != "February 2014 – July 2014" {
		t.Errorf("after ArrowRight: %q", label)
	}
	b.check(t)
}

// TestBrowserRestoresState opens a link with a window, a view and a photo
// and finds them as they were, then goes back.
func TestBrowserRestoresState(t *testing.T) {
	_, ts, _ := newTestServer(t)
	b := newBrowser(t, ts, 1280, 1000)
	_, body := get(t, ts, "/api/photos.geojson?from=2016-01&to=2016-12&agency=Reuters")
	want := len(features(t, body).Features)
	var count, label, search string
	b.run(t, ready(ts.URL+"/?agency=Reuters&from=2016-01&to=2016-12&map=7/35.5/37.5"),
		chromedp.Text(`[data-testid=count]`, &count, chromedp.ByQuery),
		chromedp.Text(`[data-testid=window]`, &label, chromedp.ByQuery),
		chromedp.Evaluate(`location.search`, &search))
	if shownCount(t, count) != want || label != "January 2016 – December 2016" || !strings.Contains(search, "map=7/35.5") {
		t.Errorf("restored: count %q (want %d), window %q, URL %q", count, want, label, search)
	}
	b.check(t)
}

// TestBrowserSmallScreen checks the explorer at 375 px: nothing is wider
// than the screen, and the map, the timeline and the filters are there.
func TestBrowserSmallScreen(t *testing.T) {
	_, ts, _ := newTestServer(t)
	b := newBrowser(t, ts, 375, 800)
	var widths map[string]float64
	b.run(t, chromedp.EmulateViewport(375, 800), ready(ts.URL+"/"),
		chromedp.Evaluate(`(() => {
			const w = (s) => document.querySelector(s).getBoundingClientRect().width;
			return { page: document.documentElement.scrollWidth, map: w("#map"), timeline: w("svg.timeline-chart"), filters: w("[data-testid=filters]"), play: w("[data-testid=play]") };
		})()`, &widths))
	if widths["page"] > 375 {
		t.Errorf("the page is %v px wide at 375", widths["page"])
	}
	for _, k := range []string{"map", "timeline", "filters"} {
		if widths[k] < 300 || widths[k] > 375 {
			t.Errorf("%s is %v px wide at 375", k, widths[k])
		}
	}
	if widths["play"] < 40 {
		t.Errorf("the play button is %v px wide", widths["play"])
	}
	shoot(t, b, "explorer-375.png")
	_, body := get(t, ts, "/api/photos.geojson?place=cur:zamalka")
	b.run(t, chromedp.EmulateViewport(1280, 1000), chromedp.Navigate(features(t, body).Features[0].Properties.MustString("url", "")),
		chromedp.WaitVisible(`[data-testid=place-map].leaflet-container path`, chromedp.ByQuery))
	shoot(t, b, "photo-page.png")
	b.check(t)
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

// TestBrowserServerClusters runs the explorer as it runs over a large
// archive, where the server clusters each view (here forced by a limit of
// one point).
func TestBrowserServerClusters(t *testing.T) {
	_, _, a := newTestServer(t)
	s, err := New(a, Options{PointsLimit: 1})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	b := newBrowser(t, ts, 1280, 1000)
	var count string
	var markers int
	b.run(t, ready(ts.URL+"/"),
		chromedp.Text(`[data-testid=count]`, &count, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelectorAll(".cluster, path.photo-marker").length`, &markers))
	if !strings.HasPrefix(count, "18 of 18 photos") || markers == 0 {
		t.Errorf("first view: count %q, %d markers", count, markers)
	}
	_, body := get(t, ts, "/api/photos.geojson?from=2016-01&to=2016-12")
	want := len(features(t, body).Features)
	var popup string
	b.run(t, ready(ts.URL+"/?from=2016-01&to=2016-12&map=9/33.5/36.35"),
		chromedp.Poll(`!document.querySelector("[data-testid=count]").textContent.startsWith("18 of")`, nil, chromedp.WithPollingTimeout(10*time.Second)),
		chromedp.Text(`[data-testid=count]`, &count, chromedp.ByQuery),
		chromedp.WaitVisible(`path.photo-marker`, chromedp.ByQuery),
		chromedp.Click(`path.photo-marker`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=popup]`, chromedp.ByQuery),
		chromedp.Text(`[data-testid=popup] .popup-caption`, &popup, chromedp.ByQuery))
	if shownCount(t, count) != want || len(popup) < 20 {
		t.Errorf("2016: count %q (the API has %d), popup %q", count, want, popup)
	}
	b.check(t)
}

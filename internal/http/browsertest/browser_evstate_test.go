package browsertest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/http/publish"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/story"
)

// eventsSite is the sample archive with UCDP GED's events, a photo of
// Aleppo linked to one of them, a published story whose one step is a
// saved view with the events layer on, served live and published.
type eventsSite struct {
	e      *editorServer
	static *httptest.Server
	aleppo string
}

// eventsView is the story's step and the tests' view: Aleppo in January
// 2016, the events layer on.
const eventsView = "from=2016-01&to=2016-01&map=8/36.2/37.15"

func newEventsSite(t *testing.T) *eventsSite {
	t.Helper()
	e, aleppo := withEvents(t, "Rebel fighters fire a mortar during clashes in Aleppo, Syria January 1, 2016. REUTERS/Abdalrhman Ismail", "mortar")
	ctx := context.Background()
	if _, err := e.a.SetEventLink(ctx, aleppo, "ucdp-ged", "214808", photo.LinkConfirmed, "editor rana"); err != nil {
		t.Fatal(err)
	}
	saveEventsStory(t, e.a)
	dir := t.TempDir()
	if _, err := publish.Publish(ctx, e.a, dir, publish.Options{IncludeUnplaced: true}); err != nil {
		t.Fatal(err)
	}
	static := httptest.NewServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(static.Close)
	return &eventsSite{e: e, static: static, aleppo: aleppo}
}

func saveEventsStory(t *testing.T, a *archive.Archive) {
	t.Helper()
	if _, err := a.SaveStory(context.Background(), story.Story{Slug: "aleppo-events", Title: "Aleppo's events", Status: story.Published, Steps: []story.Step{
		{Heading: "January 2016", State: eventsView + "&events=1"},
	}}, "", "rana", "created"); err != nil {
		t.Fatal(err)
	}
}

// layerState is what the page shows of the events layer: its box, the
// marks drawn, its status, the timeline's events line, its legend.
type layerState struct {
	Checked bool   `json:"checked"`
	Marks   int    `json:"marks"`
	Status  string `json:"status"`
	Line    int    `json:"line"`
	Legend  bool   `json:"legend"`
	Search  string `json:"search"`
}

const readLayer = `(() => {
	const legend = document.querySelector("[data-testid=events-legend]");
	return {
		checked: document.querySelector("[data-testid=events-toggle]")?.checked || false,
		marks: document.querySelectorAll("#map path.event-mark, #map path.event-cluster").length,
		status: document.querySelector(".events-status")?.textContent || "",
		line: document.querySelectorAll("[data-testid=events-line]").length,
		legend: Boolean(legend && legend.offsetParent !== null),
		search: location.search,
	};
})()`

// turnOn ticks the layer's box unless the address has ticked it.
const turnOn = `(() => { const b = document.querySelector("[data-testid=events-toggle]"); if (b && !b.checked) b.click(); return true; })()`

// drawn is the layer on and drawn, as the page shows it.
const drawn = `document.querySelectorAll("#map path.event-mark, #map path.event-cluster").length > 0 &&
	document.querySelectorAll("[data-testid=events-line]").length === 1 &&
	(document.querySelector(".events-status")?.textContent || "") !== ""`

// inPage waits, for up to 20 seconds, until cond is true in the page,
// asked by the page itself on each frame. Unlike until (chromedp.Poll),
// it reaches a page the back-forward cache restored, whose context
// chromedp's frame tracking does not see again. A page replaced while it
// waits is asked again; at the deadline it returns, and the reading
// after it says what there is.
func inPage(cond string) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		for ctx.Err() == nil {
			var ok bool
			err := chromedp.Run(ctx, eval(`new Promise((done) => { const look = () => ((`+cond+`) ? done(true) : requestAnimationFrame(look)); look(); })`, &ok))
			if err == nil && ok {
				return nil
			}
		}
		return nil
	})
}

func (s layerState) on() bool {
	return s.Checked && s.Marks > 0 && strings.Contains(s.Status, "on the map") && s.Line == 1 && s.Legend &&
		strings.Contains(s.Search, "events=1")
}

// TestBrowserEventsState (issue 68, 2): the events layer is part of the
// view's state, live and published — in the address, kept by a reload,
// by Back from a photo's page and by Back and Forward within the
// explorer, carried by "Cite this view"; its legend shows while it is on.
func TestBrowserEventsState(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	s := newEventsSite(t)
	for _, site := range []struct {
		name, explorer, photo string
	}{
		{"live", s.e.ts.URL + "/?" + eventsView, s.e.ts.URL + "/photos/" + s.aleppo},
		{"published", s.static.URL + "/index.html?" + eventsView, s.static.URL + "/photo.html?id=" + url.QueryEscape(s.aleppo)},
	} {
		t.Run(site.name, func(t *testing.T) {
			b := newBrowser(t, map[bool]*httptest.Server{true: s.e.ts, false: s.static}[site.name == "live"], 1440, 900)
			var st layerState
			look := func(when string) {
				t.Helper()
				b.run(t, inPage(drawn), eval(readLayer, &st))
				if !st.on() {
					t.Errorf("%s: the layer shows %+v; want it ticked, drawn, counted, on the timeline, its legend shown, in the address", when, st)
				}
			}
			b.run(t, ready(site.explorer), press(`[data-testid=events-toggle]`))
			look("turned on")

			var citation string
			b.run(t, press(`[data-testid=cite]`), chromedp.WaitVisible(`[data-testid=citation]`, chromedp.ByQuery),
				chromedp.Text(`[data-testid=citation]`, &citation, chromedp.ByQuery))
			if !strings.Contains(citation, "events=1") || !strings.Contains(citation, "conflict events") {
				t.Errorf("the citation %q does not carry the events layer", citation)
			}

			b.run(t, chromedp.Reload(), chromedp.WaitReady(`#explorer`, chromedp.ByQuery), settled())
			look("after a reload")

			// Back by the page's history (from the back-forward cache, or
			// loaded again: either way the layer as it was left).
			b.run(t, chromedp.Navigate(site.photo), chromedp.WaitReady(`body`, chromedp.ByQuery), settled(), leave(),
				eval(`history.back()`, nil), inPage(`!window.__left && document.getElementById("explorer") !== null`), settled())
			look("after Back from a photo's page")

			// Off, then Back (on again) and Forward (off again).
			b.run(t, eval(`document.querySelector("[data-testid=events-toggle]").click()`, nil), inPage(`!location.search.includes("events=")`),
				settled(), eval(readLayer, &st))
			if st.Checked || st.Marks != 0 || st.Legend || strings.Contains(st.Search, "events=") {
				t.Errorf("turned off: %+v", st)
			}
			b.run(t, eval(`history.back()`, nil), settled())
			look("Back to the layer on")
			b.run(t, eval(`history.forward()`, nil), inPage(`!location.search.includes("events=")`), settled(), eval(readLayer, &st))
			if st.Checked || st.Marks != 0 || st.Line != 0 {
				t.Errorf("Forward to the layer off: %+v", st)
			}

			// Which events, in the address too: those photos document.
			var which string
			var marks int
			b.run(t, ready(site.explorer+"&events=documented"), inPage(`document.querySelectorAll("#map path.event-mark").length === 1`),
				eval(`document.querySelector("[data-testid=events-documented]").value`, &which),
				eval(`document.querySelectorAll("#map path.event-mark, #map path.event-cluster").length`, &marks))
			if which != "1" || marks != 1 {
				t.Errorf("events=documented: the menu says %q, %d marks drawn; want the documented events, 1 mark", which, marks)
			}
			b.check(t)
		})
	}
}

// TestBrowserEventsStory (issue 68, 2): a story's step of a saved view
// with the events layer on draws the events, live and published.
func TestBrowserEventsStory(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	s := newEventsSite(t)
	for _, site := range []struct{ name, url string }{
		{"live", s.e.ts.URL + "/stories/aleppo-events"},
		{"published", s.static.URL + "/stories/aleppo-events.html"},
	} {
		t.Run(site.name, func(t *testing.T) {
			b := newBrowser(t, map[bool]*httptest.Server{true: s.e.ts, false: s.static}[site.name == "live"], 1440, 900)
			var marks int
			b.run(t, chromedp.Navigate(site.url), chromedp.WaitVisible(`[data-testid=story-step].current`, chromedp.ByQuery),
				until(`document.querySelector("[data-shown]").dataset.settled === "1"`), settled(),
				until(`document.querySelectorAll("[data-testid=story-map] path.event-mark, [data-testid=story-map] path.event-cluster").length > 0`),
				eval(`document.querySelectorAll("[data-testid=story-map] path.event-mark, [data-testid=story-map] path.event-cluster").length`, &marks))
			if marks == 0 {
				t.Errorf("the step's saved view has the events layer on; the story's map draws no event")
			}
			b.check(t)
		})
	}
}

// TestBrowserEventsLegend (issue 68, 2 and 8): the events layer's legend
// names its colours, sizes and hollow marks in the page's language, is
// labelled, fits the window (375 and 1440 px), and axe finds nothing
// serious or critical in the page with it shown, live and published.
func TestBrowserEventsLegend(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	axe := axeScript(t)
	s := newEventsSite(t)
	en := []string{"state-based", "non-state", "one-sided", "killed", "district", "events close together"}
	ar := []string{"قائم على الدولة", "غير حكومي", "من طرف واحد", "القتلى", "المنطقة الإدارية", "أحداث متقاربة"}
	for _, tc := range []struct {
		name   string
		server *httptest.Server
		url    string
		width  int
		height int
		words  []string
	}{
		{"live-en-1440", s.e.ts, s.e.ts.URL + "/?lang=en&", 1440, 900, en},
		{"live-ar-375", s.e.ts, s.e.ts.URL + "/?lang=ar&", 375, 812, ar},
		{"published-en-375", s.static, s.static.URL + "/index.html?", 375, 812, en},
		{"published-ar-1440", s.static, s.static.URL + "/ar/index.html?", 1440, 900, ar},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBrowser(t, tc.server, tc.width, tc.height)
			var legend struct {
				Text  string  `json:"text"`
				Name  string  `json:"name"`
				Left  float64 `json:"left"`
				Right float64 `json:"right"`
				Rows  int     `json:"rows"`
			}
			b.run(t, ready(tc.url+eventsView+"&events=1"), eval(turnOn, nil), until(drawn),
				until(`document.querySelector("[data-testid=events-legend]")?.offsetParent != null`),
				eval(`(() => {
					const l = document.querySelector("[data-testid=events-legend]");
					if (!l) return {};
					if (l.tagName === "DETAILS") l.open = true;
					const r = l.getBoundingClientRect();
					const by = l.getAttribute("aria-labelledby");
					const name = l.getAttribute("aria-label") || (by ? document.getElementById(by)?.textContent : "") || "";
					return { text: l.textContent, name, left: r.left, right: r.right, rows: l.querySelectorAll("[data-testid=events-legend-row]").length };
				})()`, &legend))
			for _, w := range tc.words {
				if !strings.Contains(legend.Text, w) {
					t.Errorf("the legend %q does not say %q", legend.Text, w)
				}
			}
			if legend.Name == "" || legend.Rows < 6 {
				t.Errorf("the legend is named %q, with %d rows; want a name and a row for each kind, size and mark", legend.Name, legend.Rows)
			}
			if legend.Left < 0 || legend.Right > float64(tc.width) {
				t.Errorf("the legend spans %v to %v px of a %d px window", legend.Left, legend.Right, tc.width)
			}
			for _, v := range axeHere(t, b, axe) {
				t.Errorf("axe, events layer on: %s", v)
			}
			b.check(t)
		})
	}
}

// TestBrowserEventsCountsApart (issue 68, 8): an event cluster's count is
// never drawn over a photo cluster's count ("4336" at Daraa was 43 events
// over 336 photos): measured from the rendered map, the boxes of the
// events' counts shown meet no photo count's box, at several zooms.
func TestBrowserEventsCountsApart(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	s := newEventsSite(t)
	b := newBrowser(t, s.e.ts, 1440, 900)
	shown, over := 0, 0
	for _, view := range []string{"6/35.0/38.5", "7/35.0/38.0", "8/36.2/37.15", "9/33.5/36.3", "10/36.2/37.15"} {
		var got [3]int
		b.run(t, ready(s.e.ts.URL+"/?events=1&map="+view), eval(turnOn, nil), until(drawn),
			chromedp.Poll(`document.querySelectorAll(".leaflet-marker-pane .cluster, .leaflet-marker-pane .pm").length > 0`, nil, chromedp.WithPollingTimeout(20*time.Second)),
			settled(), eval(`(() => {
				const shown = (e) => e.offsetParent !== null && getComputedStyle(e).visibility !== "hidden" && e.textContent.trim() !== "";
				const events = [...document.querySelectorAll(".event-count")].filter(shown).map((e) => e.getBoundingClientRect());
				const photos = [...document.querySelectorAll(".leaflet-marker-pane .cluster span, .leaflet-marker-pane .pm span")].filter(shown).map((e) => e.getBoundingClientRect());
				const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
				let n = 0;
				for (const a of events) for (const p of photos) if (meet(a, p)) n++;
				return [events.length, photos.length, n];
			})()`, &got))
		t.Logf("map=%s: %d event counts shown, %d photo counts, %d overlaps", view, got[0], got[1], got[2])
		shown += got[0]
		over += got[2]
	}
	if over > 0 {
		t.Errorf("%d event counts drawn over photo counts", over)
	}
	if shown == 0 {
		t.Errorf("no event count shown at any zoom: the test measured nothing")
	}
	b.check(t)
}

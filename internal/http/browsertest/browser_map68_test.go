package browsertest

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/syriamap/syriamap/internal/http/httpapi"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
)

// TestBrowserReviewMapLabelsApart (issue 68, 8): on the review map of a
// photo read at Aleppo, the readings at one point are labelled apart (no
// label over another; they were piled on Aleppo's point), and each names
// its kind, so that places of one name are told apart.
func TestBrowserReviewMapLabelsApart(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	e := newEditorServer(t, httpapi.Options{})
	path := filepath.Join(t.TempDir(), "aleppo.txt")
	os.WriteFile(path, []byte("Smoke rises over Aleppo, Syria, May 3, 2016. REUTERS/A. Person\n"), 0o644)
	if _, err := e.a.ImportFile(context.Background(), path, "", nil); err != nil {
		t.Fatal(err)
	}
	id := e.photoID(t, "?q=smoke")
	b := newBrowser(t, e.ts, 1440, 900)
	signIn(t, b, e)
	var out struct {
		Labels      []string
		Overlapping int
	}
	b.run(t, chromedp.Navigate(e.ts.URL+"/review/photos/"+id),
		chromedp.WaitVisible(`#review-map .leaflet-tooltip`, chromedp.ByQuery), settled(),
		eval(`(() => {
			const tips = [...document.querySelectorAll("#review-map .leaflet-tooltip")];
			const rs = tips.map((e) => e.getBoundingClientRect());
			const meet = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
			return { Labels: tips.filter((e) => !e.classList.contains("pin-tip")).map((e) => e.textContent),
				Overlapping: rs.filter((a, i) => rs.some((b, j) => i !== j && meet(a, b))).length };
		})()`, &out))
	kind := regexp.MustCompile(`\b(city|town|village|governorate|district|subdistrict|camp|neighbourhood|region|crossing|landmark)\b`)
	if len(out.Labels) == 0 || out.Overlapping != 0 {
		t.Errorf("the review map of an Aleppo photo: labels %q, %d over another", out.Labels, out.Overlapping)
	}
	for _, l := range out.Labels {
		for _, line := range strings.Split(l, "\n") {
			if !kind.MatchString(line) {
				t.Errorf("the label %q does not say what kind of place it is", line)
			}
		}
	}
	b.check(t)
}

// TestBrowserEventPopupFitsAPhone (issue 68, 8): the Arabic event popup
// stays inside the map at 375 px, its id in Arabic digits.
func TestBrowserEventPopupFitsAPhone(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	e := newEditorServer(t, httpapi.Options{})
	if _, _, err := e.a.ImportBundledEvents(context.Background()); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, e.ts, 375, 812)
	var inside bool
	var popup string
	b.run(t, ready(e.ts.URL+"/?lang=ar&from=2016-01&to=2016-01&map=8/36.2/37.15"), press(`[data-testid=events-toggle]`),
		chromedp.Poll(`document.querySelectorAll("path.event-mark").length > 0`, nil, chromedp.WithPollingTimeout(20*time.Second)),
		eval(`(() => { const ms = [...document.querySelectorAll("path.event-mark")], box = document.querySelector("#map").getBoundingClientRect();
			const m = ms.find((m) => { const r = m.getBoundingClientRect(); return r.left > box.left + 40 && r.right < box.right - 40 && r.top > box.top + 200; }) || ms[0];
			m.dispatchEvent(new MouseEvent("click", {bubbles: true})); return true; })()`, nil),
		chromedp.WaitVisible(`[data-testid=event-popup]`, chromedp.ByQuery),
		until(`!document.querySelector(".leaflet-map-pane").style.transition && !document.querySelector("#map").classList.contains("leaflet-pan-anim")`),
		settled(),
		chromedp.Text(`[data-testid=event-popup]`, &popup, chromedp.ByQuery),
		eval(`(() => { const p = document.querySelector(".leaflet-popup-content-wrapper").getBoundingClientRect(), m = document.querySelector("#map").getBoundingClientRect();
			return p.left >= m.left - 0.5 && p.right <= m.right + 0.5; })()`, &inside))
	// (The dataset's credit, "CC BY 4.0", set apart, is a name.)
	if !inside || regexp.MustCompile(`[0-9]`).MatchString(regexp.MustCompile("\u2068[^\u2069]*\u2069").ReplaceAllString(popup, "")) {
		t.Errorf("the Arabic event popup at 375 px: inside the map %v; %q", inside, popup)
	}
	b.check(t)
}

// TestBrowserCountryNamesClearOfMarkers (issue 68, 8): no country's name
// ("LEBANON", "PALESTINE") is under a marker: it is moved clear of it.
func TestBrowserCountryNamesClearOfMarkers(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	a := httpapitest.GeneratedArchive(t, 7, 5000)
	s, err := httpapi.New(a, httpapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	for _, size := range [][2]int{{1440, 900}, {1024, 768}} {
		b := newBrowser(t, ts, size[0], size[1])
		var n []int
		b.run(t, ready(ts.URL+"/"), chromedp.Poll(`document.querySelectorAll("#map .place-label").length > 5`, nil, chromedp.WithPollingTimeout(10*time.Second)),
			settled(), eval(`(() => {
				const circle = (e) => { const r = e.getBoundingClientRect(); return { x: r.left + r.width / 2, y: r.top + r.height / 2, r: r.width / 2 }; };
				const ms = [...document.querySelectorAll(".leaflet-marker-pane .leaflet-marker-icon")].map(circle);
				const ls = [...document.querySelectorAll("#map .country-label > span")].filter((e) => getComputedStyle(e).visibility !== "hidden").map((e) => e.getBoundingClientRect());
				const covers = (m, l) => { const dx = m.x - Math.max(l.left, Math.min(m.x, l.right)), dy = m.y - Math.max(l.top, Math.min(m.y, l.bottom)); return dx * dx + dy * dy < (m.r - 1) * (m.r - 1); };
				return [ms.length, ls.length, ls.filter((l) => ms.some((m) => covers(m, l))).length];
			})()`, &n))
		if n[0] < 10 || n[1] < 3 || n[2] != 0 {
			t.Errorf("%dx%d: %d markers, %d country names shown, %d under a marker", size[0], size[1], n[0], n[1], n[2])
		}
		b.check(t)
	}
}

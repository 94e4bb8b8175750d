package browsertest

import (
	"context"
	"fmt"
	"github.com/syriamap/syriamap/internal/http/httpapi"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/syriamap/syriamap/internal/http/publish"
)

// The interface in Arabic (issue 31): each page a reader or an editor
// uses, right to left, in Arabic words and digits, at a desktop's size
// and a phone's.

// untranslatedJS lists what the page shows in Latin letters that is not
// data: words outside captions, names, credits, commands and keys, and
// the text a Latin name sets apart (Unicode isolates) inside an Arabic
// sentence; in its text, its document title, and the labels, titles,
// placeholders and alternative texts a person (or a screen reader)
// reads. A ⟦key⟧ (a key the catalogue lacks) is listed too.
const untranslatedJS = `(() => {
	const data = "script, style, noscript, code, kbd, bdi, [dir=auto], [dir=ltr], [lang=en], .caption, .popup-caption, .leaflet-control-attribution, input, textarea, option, [data-testid=lang-choice]";
	const allowed = new Set(["syriamap", "GeoJSON", "CSV", "JSON", "HTML", "GPS", "EXIF", "IPTC", "XMP", "QGIS", "ArcGIS", "GDAL",
		"OGC", "API", "Features", "PMTiles", "TileJSON", "OpenAPI", "CQL2", "UTC", "UN-OCHA", "OCHA", "GeoNames", "YYYY", "YYYY-MM",
		"YYYY-MM-DD", "MM", "DD", "Page", "Up", "Down", "Shift", "https", "gzip"]);
	const found = [];
	const look = (text, where) => {
		text = (text || "").replace(/\u2068[^\u2069]*\u2069/g, " ");
		for (const w of text.match(/⟦[^⟧]*⟧|[A-Za-z][A-Za-z0-9'’-]+/g) || []) if (!allowed.has(w)) found.push(w + " — " + where);
	};
	const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
	while (walk.nextNode()) {
		const el = walk.currentNode.parentElement;
		if (el && !el.closest(data)) look(walk.currentNode.textContent, el.tagName.toLowerCase() + (el.dataset.testid ? "[" + el.dataset.testid + "]" : "") + (el.className && typeof el.className === "string" ? "." + el.className.split(" ")[0] : ""));
	}
	for (const el of document.querySelectorAll("[aria-label], [title], [placeholder], [alt]")) {
		if (el.closest("[lang=en], [data-testid=lang-choice]")) continue;
		for (const a of ["aria-label", "title", "placeholder", "alt"]) if (el.hasAttribute(a)) look(el.getAttribute(a), a + " of " + el.tagName.toLowerCase());
	}
	look(document.title, "the title");
	return found;
})()`

// arabicPage checks the page open in b reads as an Arabic page: <html
// lang=ar dir=rtl>, no word of the interface left in English, and nothing
// wider than the window.
func arabicPage(t *testing.T, b *browser, what string) {
	t.Helper()
	var lang, dir string
	var leftover []string
	var scrollWidth, innerWidth float64
	b.run(t, eval(`document.documentElement.lang`, &lang), eval(`document.documentElement.dir`, &dir),
		eval(untranslatedJS, &leftover),
		eval(`document.documentElement.scrollWidth`, &scrollWidth), eval(`window.innerWidth`, &innerWidth))
	if lang != "ar" || dir != "rtl" {
		t.Errorf("%s: <html lang=%q dir=%q>", what, lang, dir)
	}
	for _, w := range leftover {
		t.Errorf("%s: not in Arabic: %s", what, w)
	}
	if scrollWidth > innerWidth+0.5 {
		t.Errorf("%s: the page is %v px wide in a %v px window", what, scrollWidth, innerWidth)
	}
}

// TestBrowserArabic walks the explorer, a photo's page, a place's page,
// sign-in and the review, where a correction is saved, in Arabic at
// 1440×900 and 375×812; each page reads as an Arabic page (arabicPage),
// and `make screenshots` keeps a picture of each.
func TestBrowserArabic(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	for _, size := range [][2]int{{1440, 900}, {375, 812}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			e := newEditorServer(t, httpapi.Options{}) // each size corrects the photo afresh
			zamalka := e.photoID(t, "?place=ocha:C2320")
			b := newBrowser(t, e.ts, size[0], size[1])
			name := func(page string) string { return fmt.Sprintf("ar-%s-%dx%d.png", page, size[0], size[1]) }
			phone := size[0] < 500

			// The explorer: counts in Arabic-Indic digits, the place list
			// in Arabic and searchable in either script.
			var count string
			b.run(t, ready(e.ts.URL+"/?lang=ar"), eval(`document.querySelector("[data-testid=count]").textContent`, &count))
			if !strings.ContainsAny(count, "٠١٢٣٤٥٦٧٨٩") || strings.ContainsAny(count, "0123456789") {
				t.Errorf("the count reads %q", count)
			}
			arabicPage(t, b, "the explorer")
			shoot(t, b, name("explorer"))
			// (A language in an address is that page's alone, and every
			// link on it says it: TestBrowserOneLanguagePerAddress.)
			if !phone {
				var places []string
				b.run(t, chromedp.Click(`[data-testid=facet-place]`, chromedp.ByQuery),
					chromedp.WaitVisible(`[data-testid=facet-place-options] li`, chromedp.ByQuery),
					chromedp.SendKeys(`[data-testid=facet-place-search]`, "Zamalka", chromedp.ByQuery),
					chromedp.Poll(`[...document.querySelectorAll("[data-testid=facet-place-options] .facet-value")].some((e) => e.textContent === "زملكا")`, nil,
						chromedp.WithPollingTimeout(10*time.Second)),
					eval(`[...document.querySelectorAll("[data-testid=facet-place-options] .facet-value")].map((e) => e.textContent)`, &places))
				if len(places) == 0 {
					t.Errorf("the place list finds nothing for Zamalka")
				}
				arabicPage(t, b, "the explorer's place list")
				var govs []string
				b.run(t, chromedp.KeyEvent("\x1b"), chromedp.Click(`[data-testid=facet-governorate]`, chromedp.ByQuery),
					chromedp.WaitVisible(`[data-testid=facet-governorate-options] li`, chromedp.ByQuery),
					eval(`[...document.querySelectorAll("[data-testid=facet-governorate-options] .facet-value")].map((e) => e.textContent)`, &govs))
				if !slices.Contains(govs, "إدلب") || !slices.Contains(govs, "ريف دمشق") {
					t.Errorf("the governorates read %q", govs)
				}
				// The popup of a photo on the map.
				b.run(t, chromedp.KeyEvent("\x1b"), ready(e.ts.URL+"/?lang=ar&map=13/33.5247/36.3536"),
					chromedp.Click(`.leaflet-marker-pane .pm:not(.spot)`, chromedp.ByQuery),
					chromedp.WaitVisible(`.leaflet-popup [data-testid=popup]`, chromedp.ByQuery),
					settled()) // the popup open and the map still, for the picture
				arabicPage(t, b, "a photo's popup")
				shoot(t, b, name("explorer-popup"))
				// Latin digits, by the header's choice, kept with the view.
				var search, digits string
				// The link's address, kept with the view, opened as a click
				// opens it: waiting on a page a click is leaving can lose it.
				var switchTo string
				b.run(t, eval(`document.querySelector("[data-testid=digits-switch]").href`, &switchTo))
				b.run(t, ready(switchTo),
					eval(`document.querySelector("[data-testid=count]").textContent`, &count),
					eval(`decodeURIComponent(location.search)`, &search), eval(`document.documentElement.dataset.digits`, &digits))
				if digits != "latn" || !strings.ContainsAny(count, "0123456789") || strings.ContainsAny(count, "٠١٢٣٤٥٦٧٨٩") ||
					!strings.Contains(search, "digits=latn") || !strings.Contains(search, "map=13/") {
					t.Errorf("with Latin digits: %q (digits %q) at %q", count, digits, search)
				}
				b.run(t, chromedp.Click(`[data-testid=digits-switch]`, chromedp.ByQuery), chromedp.WaitReady(`#explorer`, chromedp.ByQuery))
			}

			// A photo's page and its place's, named in Arabic.
			var place, heading string
			b.run(t, chromedp.Navigate(e.ts.URL+"/photos/"+zamalka+"?lang=ar"),
				chromedp.WaitVisible(`[data-testid=place-map].leaflet-container path`, chromedp.ByQuery),
				chromedp.Text(`[data-testid=place]`, &place, chromedp.ByQuery))
			if place != "زملكا" {
				t.Errorf("the photo's place reads %q", place)
			}
			arabicPage(t, b, "a photo's page")
			shoot(t, b, name("photo"))
			b.run(t, chromedp.Navigate(e.ts.URL+"/places/ocha:C2320?lang=ar"),
				chromedp.WaitVisible(`[data-testid=place-map].leaflet-container path`, chromedp.ByQuery),
				chromedp.Text(`h1`, &heading, chromedp.ByQuery))
			if !strings.HasPrefix(heading, "زملكا") {
				t.Errorf("the place's heading reads %q", heading)
			}
			arabicPage(t, b, "a place's page")
			shoot(t, b, name("place"))

			// Sign-in, then the review queue.
			b.run(t, chromedp.Navigate(e.ts.URL+"/signin?lang=ar"), chromedp.WaitVisible(`[data-testid=signin]`, chromedp.ByQuery))
			arabicPage(t, b, "sign-in")
			shoot(t, b, name("signin"))
			b.run(t, chromedp.SendKeys(`input[name=name]`, "rana", chromedp.ByQuery),
				chromedp.SendKeys(`input[name=password]`, testPassword, chromedp.ByQuery),
				chromedp.Submit(`[data-testid=signin]`, chromedp.ByQuery),
				chromedp.WaitVisible(`[data-testid=review-groups]`, chromedp.ByQuery))
			arabicPage(t, b, "the review queue")

			// A correction saved on the review page, told in Arabic.
			var flash string
			b.run(t, chromedp.Navigate(e.ts.URL+"/review/photos/"+zamalka+"?lang=ar"),
				chromedp.WaitVisible(`#review-map.leaflet-container`, chromedp.ByQuery))
			arabicPage(t, b, "a photo under review")
			b.run(t, chromedp.SetValue(`[data-testid=lon]`, "36.35", chromedp.ByQuery),
				chromedp.SetValue(`[data-testid=lat]`, "33.53", chromedp.ByQuery),
				chromedp.Click(`[data-testid=save-point]`, chromedp.ByQuery),
				chromedp.WaitVisible(`[data-testid=flash]`, chromedp.ByQuery),
				chromedp.Text(`[data-testid=flash]`, &flash, chromedp.ByQuery))
			if !strings.Contains(flash, "وُضعت") {
				t.Errorf("after the correction: %q", flash)
			}
			arabicPage(t, b, "the review after a correction")
			shoot(t, b, name("review-saved"))
			b.check(t)
		})
	}
}

// TestBrowserArabicTimeline: on an Arabic page the timeline runs right to
// left — its first year at the right — and the arrow keys move the window
// the way they point: left is later.
func TestBrowserArabicTimeline(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	_, ts, _ := newTestServer(t)
	b := newBrowser(t, ts, 1440, 900)
	var years [][2]any
	b.run(t, ready(ts.URL+"/?lang=ar"),
		eval(`[...document.querySelectorAll("svg.timeline-chart text.year")].map((e) => [e.textContent, e.getBBox().x])`, &years))
	if len(years) < 2 {
		t.Fatalf("year labels %v", years)
	}
	first, last := years[0], years[len(years)-1]
	if first[1].(float64) <= last[1].(float64) {
		t.Errorf("the first year %v is left of the last %v", first, last)
	}
	var before, after, back float64
	const valueNow = `Number(document.querySelector("[data-testid=brush]").getAttribute("aria-valuenow"))`
	b.run(t, chromedp.Focus(`[data-testid=brush]`, chromedp.ByQuery), chromedp.KeyEvent("m"), eval(valueNow, &before))
	b.run(t, chromedp.KeyEvent(kb.ArrowLeft), until(fmt.Sprintf("%s === %v", valueNow, before+1)), eval(valueNow, &after))
	b.run(t, chromedp.KeyEvent(kb.ArrowRight), until(fmt.Sprintf("%s === %v", valueNow, before)), eval(valueNow, &back))
	if after != before+1 || back != before {
		t.Errorf("the window at %v; after ← %v (want a month later), after → %v", before, after, back)
	}
	var search string
	b.run(t, eval(`location.search`, &search))
	if q, _ := url.ParseQuery(strings.TrimPrefix(search, "?")); q.Get("lang") != "ar" {
		t.Errorf("the explorer's address %q does not keep the language", search)
	}
	b.check(t)
}

// TestBrowserArabicEveryPage: the other pages — about, the stories (as a
// reader and in the editor), the review's log, the OGC API's pages and an
// error — read as Arabic pages too.
func TestBrowserArabicEveryPage(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	e := newEditorServer(t, httpapi.Options{})
	b := newBrowser(t, e.ts, 1440, 900)
	signIn(t, b, e)
	story := writeStory(t, b, e)
	for _, page := range []string{"/about", "/stories", story, story + "/edit", "/stories/new", "/review/log",
		"/ogc?f=html", "/ogc/conformance?f=html", "/ogc/api?f=html", "/ogc/collections?f=html", "/ogc/collections/photos?f=html",
		"/ogc/collections/photos/queryables?f=html", "/ogc/collections/places/queryables?f=html",
		"/ogc/collections/photos/items?f=html&limit=5", "/ogc/collections/places/items?f=html&limit=5", "/places/no-such-place"} {
		if !strings.HasPrefix(page, "http") {
			page = e.ts.URL + page
		}
		sep := map[bool]string{true: "&", false: "?"}[strings.Contains(page, "?")]
		b.run(t, chromedp.Navigate(page+sep+"lang=ar"), settled())
		arabicPage(t, b, strings.TrimPrefix(page, e.ts.URL))
	}
	b.notFound = nil // the error page's, asked for
	b.check(t)
}

// TestBrowserPublishedArabic: a published site has its pages in Arabic
// too, in ar/ beside the English at its root, each linking to the other;
// they read as Arabic pages and count what the English ones count.
func TestBrowserPublishedArabic(t *testing.T) {
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

	var count string
	b.run(t, ready(site+"ar/"), eval(`document.querySelector("[data-testid=count]").textContent`, &count))
	if want := apiCount(t, live, ""); !strings.HasPrefix(count, arabicDigits(want)) {
		t.Errorf("the Arabic explorer counts %q; the live API %d", count, want)
	}
	arabicPage(t, b, "the published explorer")
	var heading, lang string
	b.run(t, chromedp.Navigate(site+"ar/places/ocha:C2320.html"),
		chromedp.WaitVisible(`[data-testid=place-map].leaflet-container path`, chromedp.ByQuery),
		chromedp.Text(`h1`, &heading, chromedp.ByQuery))
	if !strings.HasPrefix(heading, "زملكا") {
		t.Errorf("the published place's heading reads %q", heading)
	}
	arabicPage(t, b, "a published place")
	b.run(t, chromedp.Click(`[data-testid=lang-switch]`, chromedp.ByQuery), chromedp.WaitVisible(`[data-testid=place-map]`, chromedp.ByQuery),
		eval(`document.documentElement.lang + " " + location.pathname`, &lang))
	if lang != "en /syria/places/ocha:C2320.html" {
		t.Errorf("the English of the Arabic place page: %q", lang)
	}
	b.check(t)
}

// arabicDigits writes n in Arabic-Indic digits with their separators.
func arabicDigits(n int) string {
	return strings.NewReplacer("0", "٠", "1", "١", "2", "٢", "3", "٣", "4", "٤", "5", "٥", "6", "٦", "7", "٧", "8", "٨", "9", "٩", ",", "٬").
		Replace(fmt.Sprintf("%d", n))
}

// TestBrowserPhoneFitsBothLanguages: at 375×812 no page is wider than
// the phone, in English or in Arabic.
func TestBrowserPhoneFitsBothLanguages(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	e := newEditorServer(t, httpapi.Options{})
	zamalka := e.photoID(t, "?place=ocha:C2320")
	b := newBrowser(t, e.ts, 375, 812)
	pages := []string{"/", "/photos/" + zamalka, "/places/ocha:C2320", "/about", "/stories", "/signin", "/review",
		"/review/photos/" + zamalka, "/review/log", "/ogc/collections/photos/items?f=html&limit=5"}
	check := func(who string) {
		for _, lang := range []string{"en", "ar"} {
			for _, page := range pages {
				sep := map[bool]string{true: "&", false: "?"}[strings.Contains(page, "?")]
				var wide float64
				b.run(t, chromedp.Navigate(e.ts.URL+page+sep+"lang="+lang), settled(),
					eval(`document.documentElement.scrollWidth - window.innerWidth`, &wide))
				if wide > 0.5 {
					t.Errorf("%s, %s, %s: %v px wider than the phone", lang, who, page, wide)
				}
			}
		}
	}
	check("signed out")
	signIn(t, b, e)
	check("signed in")
	b.check(t)
}

// TestBrowserArabicReviewMapLabels (issue 54, 7): on the Arabic review
// page the readings' labels are inside the map, numbered in Arabic
// digits as the buttons are, and "الآن: …" stands on its pin.
func TestBrowserArabicReviewMapLabels(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	e := newEditorServer(t, httpapi.Options{})
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "judaydah.txt")
	os.WriteFile(path, []byte("Men walk in Judaydah, Syria, May 2, 2016. (Photo by A. Person/Reuters)\n"), 0o644)
	if _, err := e.a.ImportFile(ctx, path, "", nil); err != nil {
		t.Fatal(err)
	}
	id := e.photoID(t, "?q=Judaydah")
	b := newBrowser(t, e.ts, 1440, 900)
	signIn(t, b, e)
	var out struct {
		Labels  []string
		Outside int
		PinGap  float64
	}
	b.run(t, chromedp.Navigate(e.ts.URL+"/review/photos/"+id+"?lang=ar"),
		chromedp.WaitVisible(`#review-map .leaflet-tooltip`, chromedp.ByQuery),
		settled(), // every name placed
		eval(`(() => {
			const box = document.querySelector("#review-map").getBoundingClientRect();
			const tips = [...document.querySelectorAll("#review-map .leaflet-tooltip:not(.pin-tip)")];
			const outside = tips.filter((e) => { const r = e.getBoundingClientRect(); return r.left < box.left || r.right > box.right || r.top < box.top || r.bottom > box.bottom; }).length;
			const pin = document.querySelector("#review-map .pin").getBoundingClientRect();
			const tip = document.querySelector("#review-map .pin-tip").getBoundingClientRect();
			return { Labels: tips.map((e) => e.textContent), Outside: outside,
				PinGap: Math.abs((tip.left + tip.right) / 2 - (pin.left + pin.right) / 2) + Math.max(0, pin.top - tip.bottom - 12) };
		})()`, &out))
	if len(out.Labels) == 0 || out.Outside > 0 || out.PinGap > 4 {
		t.Errorf("the Arabic review map: labels %q, %d outside the map; the pin's label %.0f px off its pin", out.Labels, out.Outside, out.PinGap)
	}
	for _, l := range out.Labels {
		if strings.ContainsAny(l, "0123456789") {
			t.Errorf("the label %q numbers its reading in Latin digits", l)
		}
	}
	b.check(t)
}

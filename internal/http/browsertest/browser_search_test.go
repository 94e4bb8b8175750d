package browsertest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/syriamap/syriamap/internal/http/publish"
)

// TestBrowserSearchForgivesAndTells (issue 54, defect 2): a search pasted
// with its commas finds its captions; a search the server refuses is said
// beside the field in the server's words, and the count, map, list and
// downloads show nothing for it — never the previous answer; a search
// that is a place's name offers that place's filter with its count. The
// published site forgives and offers the same.
func TestBrowserSearchForgivesAndTells(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	_, live, a := newTestServer(t)
	b := newBrowser(t, live, 1440, 900)

	// Commas and a date, as a caption writes them.
	var count string
	pasted := "Aleppo, Syria, August 21"
	b.run(t, ready(live.URL+"/?q="+url.QueryEscape(pasted)), chromedp.Text(`[data-testid=count]`, &count, chromedp.ByQuery))
	if want := apiCount(t, live, "?q="+url.QueryEscape(pasted)); want == 0 || shownCount(t, count) != want {
		t.Errorf("%q: count %q, the API finds %d (want some)", pasted, count, want)
	}

	// A refused search: the server's message beside the field, nothing
	// shown under it.
	var message, downloads string
	var markers, rows int
	b.run(t, chromedp.SetValue(`input[name=q]`, `"Aleppo`, chromedp.ByQuery),
		chromedp.SendKeys(`input[name=q]`, " ", chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=q-error]`, chromedp.ByQuery),
		settled(),
		chromedp.Text(`[data-testid=q-error]`, &message, chromedp.ByQuery),
		chromedp.Text(`[data-testid=count]`, &count, chromedp.ByQuery),
		chromedp.Text(`[data-testid=downloads]`, &downloads, chromedp.ByQuery),
		eval(`document.querySelectorAll(".leaflet-marker-pane .cluster, .leaflet-marker-pane .pm").length`, &markers),
		eval(`document.querySelectorAll("[data-testid=photo-row]").length`, &rows))
	shoot(t, b, "explorer-search-refused.png")
	if !strings.Contains(message, "not a valid full-text search") || !strings.Contains(count, "Nothing is shown") ||
		!strings.Contains(downloads, "Nothing to download") || markers != 0 || rows != 0 {
		t.Errorf("a refused search: message %q, count %q, downloads %q, %d markers, %d rows", message, count, downloads, markers, rows)
	}

	// A place's name, in another spelling: its filter offered, counted.
	offer := func(b *browser, site string) (string, int) {
		t.Helper()
		var text string
		b.run(t, ready(site+"?q=Halab"), chromedp.WaitVisible(`[data-testid=place-offer]`, chromedp.ByQuery),
			chromedp.Text(`[data-testid=place-offer]`, &text, chromedp.ByQuery),
			chromedp.Click(`[data-testid=place-offer]`, chromedp.ByQuery),
			settled(), // the place's photos counted
			chromedp.Text(`[data-testid=count]`, &count, chromedp.ByQuery))
		return text, shownCount(t, count)
	}
	// The city's count is the photos at it and in its quarters (issue
	// 68, 3): what its filter then shows.
	atAleppo := apiCount(t, live, "?place=gn:170063")
	offered := func(text string) int { // "Aleppo, city: 1,234 photos"
		m := regexp.MustCompile(`: ([\d,]+) photos?$`).FindStringSubmatch(text)
		if m == nil {
			return -1
		}
		n, _ := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
		return n
	}
	if text, n := offer(b, live.URL+"/"); !strings.Contains(text, "Aleppo, city") || n != offered(text) || n < atAleppo {
		t.Errorf("the live explorer offers %q, then counts %d; the API places %d at Aleppo itself", text, n, atAleppo)
	}
	b.check(t)

	// The published site: the same search with commas, the same offer.
	dir := t.TempDir()
	if _, err := publish.Publish(context.Background(), a, dir, publish.Options{IncludeUnplaced: true}); err != nil {
		t.Fatal(err)
	}
	static := httptest.NewServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(static.Close)
	ps := newBrowser(t, static, 1440, 900)
	ps.run(t, ready(static.URL+"/?q="+url.QueryEscape(pasted)), chromedp.Text(`[data-testid=count]`, &count, chromedp.ByQuery))
	if want := apiCount(t, live, "?q="+url.QueryEscape(pasted)); shownCount(t, count) != want {
		t.Errorf("the published site finds %q in %q; the live API %d", pasted, count, want)
	}
	if text, n := offer(ps, static.URL+"/"); !strings.Contains(text, "Aleppo, city") || n != offered(text) || n < atAleppo {
		t.Errorf("the published site offers %q, then counts %d; the API places %d at Aleppo", text, n, atAleppo)
	}
	ps.check(t)
}

// TestBrowserPhoneMarkers (issue 54, 7): on a phone a single photo's
// marker is drawn 24 px across, the size a finger hits; on a wide screen
// 16 px.
func TestBrowserPhoneMarkers(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	_, ts, _ := newTestServer(t)
	for _, tc := range []struct {
		width, height int
		want          float64
	}{{375, 812, 24}, {1440, 900, 16}} {
		b := newBrowser(t, ts, tc.width, tc.height)
		var size float64
		b.run(t, ready(ts.URL+"/?map=13/33.5247/36.3536"),
			chromedp.WaitVisible(`.leaflet-marker-pane .pm:not(.spot)`, chromedp.ByQuery),
			eval(`document.querySelector(".leaflet-marker-pane .pm:not(.spot)").getBoundingClientRect().width`, &size))
		if size != tc.want {
			t.Errorf("at %d px wide a photo's marker is %v px across; want %v", tc.width, size, tc.want)
		}
		b.check(t)
	}
}

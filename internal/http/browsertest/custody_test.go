package browsertest

import (
	"context"
	"github.com/chromedp/chromedp"
	"github.com/syriamap/syriamap/internal/http/httpapi"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/store"
	"path"
	"regexp"
	"strings"
	"testing"
)

// TestBrowserCustodyAndReuse: a reused photo's page in Chromium, in
// English and Arabic, shows the reuse sentence beside the check (saying
// the picture is older than the event its caption names) and the
// custody record; make screenshots keeps both pages.
func TestBrowserCustodyAndReuse(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	a, _ := httpapitest.ImageArchive(t)
	ts, _ := serveArchive(t, a, httpapi.Options{})
	first := featureWith(t, ts, "Men walk through rubble in Aleppo")
	other := featureWith(t, ts, "Internally displaced Syrian children stand near their tent")
	if _, err := rawStore(t, a).SetReuse(context.Background(), "syriamap frames", map[string]store.Reuse{
		path.Base(other["url"].(string)): {Kind: photo.ReuseConflict, Of: path.Base(first["url"].(string)), Why: []string{"place", "date"}},
		path.Base(first["url"].(string)): {Kind: photo.ReuseCopy, Of: path.Base(other["url"].(string))},
	}); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, ts, 1440, 900)
	for _, lang := range []string{"en", "ar"} {
		var reuse string
		var records int
		b.run(t, chromedp.Navigate(other["url"].(string)+"?lang="+lang),
			chromedp.WaitVisible(`[data-testid=reuse]`, chromedp.ByQuery),
			chromedp.ScrollIntoView(`[data-testid=custody]`, chromedp.ByQuery),
			chromedp.Text(`[data-testid=reuse]`, &reuse, chromedp.ByQuery),
			eval(`document.querySelectorAll("[data-testid=custody-record]").length`, &records))
		// The frame was known 40 days before this caption's date: older
		// than the event it names.
		older := map[string]string{"en": "in circulation 40 days before the date this caption gives", "ar": "أقدم من الحدث"}[lang]
		if !strings.Contains(reuse, map[string]string{"en": "Aleppo, 13 December 2016", "ar": "حلب"}[lang]) || !strings.Contains(reuse, older) || records < 2 {
			t.Errorf("%s: reuse %q, %d custody records", lang, reuse, records)
		}
		shoot(t, b, "photo-reused-custody-"+lang+".png")
	}
	b.check(t)
}

// TestBrowserReuseFilter: the explorer's "Same frame" filter selects the
// photos flagged reuse=conflict — on the map, in the count and in the
// address — and the list without JavaScript does too.
func TestBrowserReuseFilter(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	_, ts, a := newTestServer(t)
	ids := []string{}
	_, raw := get(t, ts, "/api/photos.geojson?limit=3")
	for _, f := range features(t, raw).Features {
		ids = append(ids, path.Base(f.Properties["url"].(string)))
	}
	if _, err := rawStore(t, a).SetReuse(context.Background(), "test", map[string]store.Reuse{
		ids[1]: {Kind: photo.ReuseConflict, Of: ids[0]}, ids[2]: {Kind: photo.ReuseConflict, Of: ids[0]}, ids[0]: {Kind: photo.ReuseCopy, Of: ids[1]},
	}); err != nil {
		t.Fatal(err)
	}
	// Their mark on the map: code 3 of the points' "metadata".
	_, raw = get(t, ts, "/api/points.json")
	for _, id := range ids[1:] {
		if !strings.Contains(string(raw), `["`+id+`",`) || !regexp.MustCompile(`\["`+id+`",[^\]]*,3\]`).Match(raw) {
			t.Errorf("photo %s's point is not marked as a reused frame", id)
		}
	}
	_, raw = get(t, ts, "/?reuse=conflict")
	if !strings.Contains(string(raw), `data-testid="reuse-filter"`) || strings.Count(string(raw), `data-testid="photo-row"`) != 2 {
		t.Errorf("the page without script: %d rows", strings.Count(string(raw), `data-testid="photo-row"`))
	}
	b := newBrowser(t, ts, 1440, 900)
	var count, search string
	b.run(t, ready(ts.URL+"/"),
		chromedp.SetValue(`[data-testid=reuse-filter]`, "conflict", chromedp.ByQuery),
		eval(`document.querySelector("[data-testid=reuse-filter]").dispatchEvent(new Event("change")), true`, nil),
		waitText(`[data-testid=count]`, "2 of"),
		chromedp.Text(`[data-testid=count]`, &count, chromedp.ByQuery), eval(`location.search`, &search))
	if !strings.HasPrefix(count, "2 of") || !strings.Contains(search, "reuse=conflict") {
		t.Errorf("the filter: count %q at %q", count, search)
	}
	b.check(t)
}

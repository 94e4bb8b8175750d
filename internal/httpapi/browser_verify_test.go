package httpapi

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserPermalinkReads: the link a reader copies writes the map view
// as zoom/lat/lon, slashes and all, not percent-encoded (issue 26, 17).
func TestBrowserPermalinkReads(t *testing.T) {
	_, ts, _ := newTestServer(t)
	b := newBrowser(t, ts, 1440, 900)
	var search string
	b.run(t, ready(ts.URL+"/?from=2016-01&to=2016-12&map=7/35/38"),
		chromedp.Click(`.leaflet-control-zoom-in`, chromedp.ByQuery), // a change of view the page writes back
		chromedp.Poll(`!location.search.includes("map=7/")`, nil, chromedp.WithPollingTimeout(10*time.Second)),
		eval(`location.search`, &search))
	if !strings.Contains(search, "map=8/") || strings.Contains(search, "%2F") {
		t.Errorf("the link after zooming in: %q, want map=8/lat/lon unencoded", search)
	}
	b.check(t)
}

package browsertest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/syriamap/syriamap/internal/http/publish"
)

// TestBrowserFirstVisit: a first visit of the explorer, live and
// published, starts fetching its points with the page (rel=preload, the
// very request the script makes: fetched once), and draws the view's
// clusters before it has read them all (issue 41, speed: first markers
// ≤ 1.2 s cold). Without the preload the points are fetched by the
// script alone; without the interim clusters the first markers wait for
// every point.
func TestBrowserFirstVisit(t *testing.T) {
	t.Parallel() // its own server, archive and browser context
	_, live, a := newTestServer(t)
	dir := t.TempDir()
	if _, err := publish.Publish(context.Background(), a, dir, publish.Options{IncludeUnplaced: true}); err != nil {
		t.Fatal(err)
	}
	static := httptest.NewServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(static.Close)
	for _, site := range []struct {
		name       string
		srv        *httptest.Server
		at, points string
	}{
		{"live", live, "/?from=2014-01&to=2016-12", "/api/points.json"},
		{"published", static, "/?from=2014-01&to=2016-12", "/data/points."},
		{"published in Arabic", static, "/ar/?from=2014-01&to=2016-12", "/data/points."},
	} {
		t.Run(site.name, func(t *testing.T) {
			b := newBrowser(t, site.srv, 1440, 900)
			var got struct {
				Preloaded, Fetched         int
				FirstRender, Ready, Points float64
				Markers                    int
			}
			b.run(t, ready(site.srv.URL+site.at), eval(`(() => {
				const points = performance.getEntriesByType("resource").filter((e) => new URL(e.name).pathname.includes(`+"`"+site.points+"`"+`));
				const at = (name) => performance.getEntriesByName(name)[0]?.startTime ?? -1;
				return {
					Preloaded: points.filter((e) => e.initiatorType === "link").length,
					Fetched: points.length,
					FirstRender: at("syriamap:first-render"), Ready: at("syriamap:window"),
					Points: points[0]?.responseEnd ?? -1,
					Markers: document.querySelectorAll(".leaflet-marker-pane .cluster, .leaflet-marker-pane .pm").length,
				};
			})()`, &got))
			if got.Fetched != 1 || got.Preloaded != 1 {
				t.Errorf("the points were fetched %d times, %d of them by the page's preload; want once, by the preload", got.Fetched, got.Preloaded)
			}
			if got.FirstRender < 0 || got.Ready < 0 || got.FirstRender >= got.Ready || got.Markers == 0 {
				t.Errorf("first markers at %.0f ms, the points first drawn at %.0f ms, %d markers: the view's clusters should come first", got.FirstRender, got.Ready, got.Markers)
			}
			b.check(t)
		})
	}
}

package pages_test

import (
	"slices"
	"testing"

	"github.com/syriamap/syriamap/internal/http/httpapi"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
	"github.com/syriamap/syriamap/internal/http/httpapi/servertest"
)

// TestExplorerPreloadsItsFirstRequests: with no filter the explorer's
// page starts the requests its script makes first (the month timeline,
// the basemap, every point while the archive is under the points limit),
// so that they do not wait for the script; with a filter, or over the
// limit, it leaves the points to the script. (The browser test checks
// the script asks for the very same URLs: TestBrowserFirstVisit.)
func TestExplorerPreloadsItsFirstRequests(t *testing.T) {
	small := newServer(t)
	a, media := httpapitest.SampleArchive(t)
	large := servertest.Serve(t, a, httpapi.Options{Media: media, PointsLimit: 5}) // 18 photos: clustered
	for _, c := range []struct {
		name string
		srv  *servertest.Server
		path string
		want []string
	}{
		{"no filter", small, "/", []string{"/api/timeline?bin=month", "/basemap.geojson", "/api/points.json"}},
		{"a time window", small, "/?from=2016&to=2016", []string{"/api/timeline?bin=month", "/basemap.geojson", "/api/points.json"}},
		{"an agency", small, "/?agency=Reuters", nil},
		{"over the points limit", large, "/", []string{"/api/timeline?bin=month", "/basemap.geojson"}},
	} {
		d := httpapitest.GetPage(t, c.srv.TS, c.path)
		var got []string
		for _, l := range httpapitest.Elements(d.Root, "link") {
			if httpapitest.AttrOf(l, "rel") == "preload" {
				got = append(got, httpapitest.AttrOf(l, "href"))
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s (%s): preloads %q, want %q", c.name, c.path, got, c.want)
		}
	}
}

package httpapi

import (
	"net/http"
	"strings"
	"testing"
)

// TestAPINamesInArabic: the API is as it was, with the Arabic name beside
// the name where a place is given.
func TestAPINamesInArabic(t *testing.T) {
	_, ts, _ := newTestServer(t)
	for _, c := range []struct{ path, want string }{
		{"/api/photos.geojson?place=ocha:C2320", `"place_name":"Zamalka","place_name_ar":"زملكا"`},
		{"/api/facets?field=place", `"label_ar":"زملكا"`},
		{"/api/facets?field=governorate", `"value":"SY07","label":"Idlib","label_ar":"إدلب"`},
		{"/api/labels?bbox=36,33,37,34&zoom=12", `"name_ar":"زملكا"`},
		{"/api/places.geojson?place=ocha:C2320", `"name_ar":"زملكا"`},
	} {
		resp, body := get(t, ts, c.path)
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), c.want) {
			t.Errorf("%s: %s, want %s in %.300s", c.path, resp.Status, c.want, body)
		}
	}
}

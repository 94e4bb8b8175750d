package pages_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/paulmach/orb/geojson"

	"github.com/syriamap/syriamap/internal/http/httpapi"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
	"github.com/syriamap/syriamap/internal/http/httpapi/servertest"
)

// newServer is the HTTP tests' sample archive (the sample captions plus
// two photos with images, one by URL and one from its media folder)
// served whole (servertest): the pages link to the API's lists and
// downloads, and their tests follow those links.
func newServer(t *testing.T) *servertest.Server { return servertest.Sample(t, httpapi.Options{}) }

func get(t *testing.T, ts *httptest.Server, path string, header ...string) (*http.Response, []byte) {
	t.Helper()
	return httpapitest.Get(t, ts, path, header...)
}

func features(t *testing.T, body []byte) *geojson.FeatureCollection {
	t.Helper()
	return httpapitest.Features(t, body)
}

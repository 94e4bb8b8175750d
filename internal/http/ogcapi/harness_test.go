package ogcapi_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/http/httpapi"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
	"github.com/syriamap/syriamap/internal/http/httpapi/servertest"
)

// The OGC API's promises are tested through the whole server (servertest),
// as QGIS and GDAL meet them: the links it follows cross other routes.

func newTestServer(t testing.TB) (*httpapi.Server, *httptest.Server, *archive.Archive) {
	t.Helper()
	s := servertest.Sample(t, httpapi.Options{})
	return s.S, s.TS, s.A
}

func get(t testing.TB, ts *httptest.Server, path string, header ...string) (*http.Response, []byte) {
	t.Helper()
	return httpapitest.Get(t, ts, path, header...)
}

func sampleConfidence(t testing.TB, mention string) float64 {
	t.Helper()
	return httpapitest.SampleConfidence(t, mention)
}

func writeFile(t testing.TB, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

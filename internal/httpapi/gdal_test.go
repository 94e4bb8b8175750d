package httpapi

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// needTool finds a GDAL program; a missing one skips the test, except in
// CI, where .ci/run installs gdal-bin and a missing tool is a failure.
func needTool(t *testing.T, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not installed (Debian's gdal-bin); CI must install it", name)
		}
		t.Skipf("%s is not installed (Debian's gdal-bin)", name)
	}
	return path
}

func run(t *testing.T, name string, args ...string) string {
	t.Helper()
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestGDALOpensDownloads downloads the GeoJSON and the CSV and opens them
// with GDAL, the GIS client most tools build on: the right number of
// features, Point geometry, the date typed Date and the confidence Real;
// and ogr2ogr turns each into a GeoPackage.
func TestGDALOpensDownloads(t *testing.T) {
	ogrinfo, ogr2ogr := needTool(t, "ogrinfo"), needTool(t, "ogr2ogr")
	_, ts, _ := newTestServer(t)
	dir := t.TempDir()
	for _, c := range []struct {
		path, file string
		open       []string
		want       int
	}{
		{"/api/photos.geojson?download=1", "photos.geojson", nil, 18},
		{"/api/photos.geojson?from=2016&to=2016", "photos-2016.geojson", nil, 11},
		{"/api/photos.csv", "photos.csv", []string{"-oo", "X_POSSIBLE_NAMES=lon", "-oo", "Y_POSSIBLE_NAMES=lat", "-oo", "AUTODETECT_TYPE=YES"}, 18},
	} {
		resp, body := get(t, ts, c.path)
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d", c.path, resp.StatusCode)
		}
		file := filepath.Join(dir, c.file)
		os.WriteFile(file, body, 0o644)
		info := run(t, ogrinfo, append(append([]string{"-ro", "-al", "-so"}, c.open...), file)...)
		for _, want := range []*regexp.Regexp{
			regexp.MustCompile(`Feature Count: ` + strconv.Itoa(c.want) + `\n`),
			regexp.MustCompile(`Geometry: Point`),
			regexp.MustCompile(`\ndate: Date`),
			regexp.MustCompile(`\nconfidence: Real`),
		} {
			if !want.MatchString(info) {
				t.Errorf("%s: ogrinfo does not say %s:\n%s", c.file, want, info)
			}
		}
		gpkg := filepath.Join(dir, c.file+".gpkg")
		run(t, ogr2ogr, append(append([]string{"-f", "GPKG"}, c.open...), gpkg, file)...)
		if got := run(t, ogrinfo, "-ro", "-al", "-so", gpkg); !strings.Contains(got, "Feature Count: "+strconv.Itoa(c.want)) {
			t.Errorf("%s: the GeoPackage has another count:\n%s", c.file, got)
		}
	}
}

package httpapi

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/csv"
	"io"
	"io/fs"
	"math"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geo"
	"github.com/paulmach/orb/geojson"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/http/publish"
	"github.com/syriamap/syriamap/internal/http/web"
)

// TestCameraPointCannotBeRecovered plays the attacker of issue 39: it
// fetches everything a signed-out reader can about a photo whose file has
// a GPS point — every photo route and download in both languages, the OGC
// API, and a published copy of the archive — before and after an editor
// corrects its place twice, reads every distance in what it got, and
// trilaterates from the places the photo was shown at. It fails when the
// point comes out within 25 km of the camera's.
func TestCameraPointCannotBeRecovered(t *testing.T) {
	for _, c := range []struct {
		name, caption string
		lon, lat      float64  // the camera's point (fixtures.sh)
		corrections   []string // the places an editor moves it to, in turn
	}{
		// Caption in Aleppo, GPS in Turkey: the import's note compares them.
		{"caption and GPS disagree", "Men walk through rubble in Aleppo", 37.383, 37.066, []string{"Idlib", "Hama"}},
		// No place in the caption: only the corrections name one.
		{"place only from corrections", "A test picture made at 36.2021 N", 37.1343, 36.2021, []string{"Homs", "Latakia"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, _ := imageArchive(t)
			ts, _ := serveArchive(t, a, Options{})
			p := featureWith(t, ts, c.caption)
			id := strings.TrimPrefix(p["url"].(string), ts.URL+"/photos/")
			truth := orb.Point{c.lon, c.lat}
			var evidence []stateEvidence
			for i := 0; ; i++ {
				evidence = append(evidence, publicEvidence(t, a, ts, id, c.caption))
				if i == len(c.corrections) {
					break
				}
				pl := a.Gazetteer().Lookup(c.corrections[i])
				if len(pl) == 0 {
					t.Fatalf("no place %s in the gazetteer", c.corrections[i])
				}
				if err := a.SetPlace(context.Background(), id, pl[0].ID, nil, "moved by the test"); err != nil {
					t.Fatal(err)
				}
			}
			for _, guess := range trilaterate(evidence) {
				if km := geo.Distance(guess, truth) / 1000; km < 25 {
					t.Errorf("the camera's point is recovered to %.1f km from the public data (guess %v)", km, guess)
				}
			}
		})
	}
}

// stateEvidence is what a signed-out reader learns of the photo in one
// state of the archive: where it is shown, and every distance in km
// written anywhere about it.
type stateEvidence struct {
	shownAt   []orb.Point
	distances []float64
}

var (
	kmText       = regexp.MustCompile(`(\d+(?:\.\d+)?)\s*(?:km|كم|kilomet)`)
	distanceProp = regexp.MustCompile(`"gps_distance_km":\s*(\d+(?:\.\d+)?)`)
	latinDigits  = strings.NewReplacer("٠", "0", "١", "1", "٢", "2", "٣", "3", "٤", "4", "٥", "5", "٦", "6", "٧", "7", "٨", "8", "٩", "9", "٫", ".", "٬", "")
)

// publicEvidence fetches the photo's public routes and a freshly published
// site, and reads from them the photo's point and every distance written
// in what they say of it (a collection's other photos left out).
func publicEvidence(t *testing.T, a *archive.Archive, ts *httptest.Server, id, caption string) stateEvidence {
	t.Helper()
	var own, collections []string // texts all about the photo; texts about many
	for _, u := range []string{"/api/photos/" + id + ".geojson", "/ogc/collections/photos/items/" + id,
		"/ogc/collections/photos/items/" + id + "?f=html", "/photos/" + id, "/photos/" + id + "?lang=ar"} {
		_, body := get(t, ts, u)
		own = append(own, string(body))
	}
	for _, u := range []string{"/api/photos.geojson", "/api/photos.csv", "/api/photos.geojsonl", "/ogc/collections/photos/items?limit=1000",
		"/ogc/collections/photos/items?limit=1000&f=html", "/api/points.json", "/api/clusters?bbox=30,29,48,41&zoom=6"} {
		_, body := get(t, ts, u)
		collections = append(collections, string(body))
	}
	dir := t.TempDir()
	if _, err := publish.Publish(context.Background(), a, dir, publish.Options{IncludeUnplaced: true}); err != nil {
		t.Fatal(err)
	}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(path, ".jpg") || strings.HasSuffix(path, ".pmtiles") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.HasSuffix(path, ".gz") {
			if zr, err := gzip.NewReader(bytes.NewReader(b)); err == nil {
				b, _ = io.ReadAll(zr)
			}
		}
		collections = append(collections, string(b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// A collection's records: GeoJSON Features, lines, table rows.
	record := regexp.MustCompile(`\{"type":"Feature"|\n|<tr`)
	for _, s := range collections {
		for _, r := range record.Split(s, -1) {
			if strings.Contains(r, id) || strings.Contains(r, caption) {
				own = append(own, r)
			}
		}
	}
	var ev stateEvidence
	_, body := get(t, ts, "/api/photos/"+id+".geojson")
	f, err := geojson.UnmarshalFeature(body)
	if err != nil {
		t.Fatalf("the photo's GeoJSON: %v", err)
	}
	if pt, ok := f.Geometry.(orb.Point); ok {
		ev.shownAt = append(ev.shownAt, pt)
	}
	for _, s := range own {
		s = latinDigits.Replace(s)
		for _, re := range []*regexp.Regexp{kmText, distanceProp} {
			for _, m := range re.FindAllStringSubmatch(s, -1) {
				if v, err := strconv.ParseFloat(m[1], 64); err == nil && v > 0.5 {
					ev.distances = append(ev.distances, v)
				}
			}
		}
		if strings.HasPrefix(s, id+",") { // the CSV's gps_distance_km column
			cells, err := csv.NewReader(strings.NewReader(s)).Read()
			if err != nil || len(cells) != len(web.CSVHeader) {
				t.Fatalf("the photo's CSV row: %v (%d cells)", err, len(cells))
			}
			if v, err := strconv.ParseFloat(cells[slices.Index(web.CSVHeader, "gps_distance_km")], 64); err == nil {
				ev.distances = append(ev.distances, v)
			}
		}
	}
	return ev
}

// trilaterate returns the attacker's guesses: the centres of the small
// regions where every distance read in each state fits a circle round one
// of the points the photo was shown at (rounded to whole km, so within
// 1.5 km). With no distance at all it guesses nothing.
func trilaterate(states []stateEvidence) []orb.Point {
	var centres []orb.Point
	measured := false
	for _, s := range states {
		centres = append(centres, s.shownAt...)
		measured = measured || len(s.distances) > 0
	}
	if !measured || len(centres) == 0 {
		return nil
	}
	var fits []orb.Point
	for lon := 30.0; lon <= 48; lon += 0.02 {
		for lat := 29.0; lat <= 41; lat += 0.02 {
			pt := orb.Point{lon, lat}
			ok := true
			for _, s := range states {
				for _, d := range s.distances {
					near := false
					for _, c := range centres {
						if math.Abs(geo.Distance(pt, c)/1000-d) <= 1.5 {
							near = true
							break
						}
					}
					if !near {
						ok = false
						break
					}
				}
				if !ok {
					break
				}
			}
			if ok {
				fits = append(fits, pt)
			}
		}
	}
	// Group the fitting cells into regions 10 km apart; a region under
	// 50 km across is a guess.
	var guesses []orb.Point
	used := make([]bool, len(fits))
	for i := range fits {
		if used[i] {
			continue
		}
		region := []orb.Point{fits[i]}
		used[i] = true
		for k := 0; k < len(region); k++ {
			for j := range fits {
				if !used[j] && geo.Distance(region[k], fits[j]) < 10000 {
					used[j] = true
					region = append(region, fits[j])
				}
			}
		}
		var c orb.Point
		for _, p := range region {
			c[0] += p[0] / float64(len(region))
			c[1] += p[1] / float64(len(region))
		}
		small := true
		for _, p := range region {
			if geo.Distance(c, p) > 25000 {
				small = false
				break
			}
		}
		if small {
			guesses = append(guesses, c)
		}
	}
	return guesses
}

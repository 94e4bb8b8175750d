package httpapi

import (
	"bytes"
	"context"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
	"github.com/syriamap/syriamap/internal/http/imagery"
	"github.com/syriamap/syriamap/internal/http/lane"
	"github.com/syriamap/syriamap/internal/http/publish"
	"github.com/syriamap/syriamap/internal/http/publish/sitetest"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/resize"
)

// harmArchive is the harness's Harm archive (httpapitest.HarmArchive):
// image files and a photo from --media, one of each kind withheld, one
// marked graphic, and a published story that shows all three.
type harmArchive struct {
	a                   *archive.Archive
	media               string
	withheld, fromMedia *photo.Photo // both withheld
	graphic             *photo.Photo
	public              int // photos the public may see
	token               string
}

func newHarmArchive(t *testing.T) *harmArchive {
	t.Helper()
	h := httpapitest.HarmArchive(t)
	return &harmArchive{a: h.A, media: h.Media, withheld: h.Withheld, fromMedia: h.FromMedia, graphic: h.Graphic, public: h.Public, token: h.Token}
}

// traces are what would give a withheld photo away: its id, its
// caption's words, its image file's hash and its media path.
func (h *harmArchive) traces() []string {
	var out []string
	for _, p := range []*photo.Photo{h.withheld, h.fromMedia} {
		out = append(out, p.ID, p.Caption[:40])
		if p.ImageFile != "" {
			out = append(out, p.ImageFile)
		}
		if p.ImagePath != "" {
			out = append(out, p.ImagePath)
		}
	}
	return out
}

// tileOf is the z/x/y of the web-mercator tile holding lon, lat.
func tileOf(z int, lon, lat float64) (x, y int) {
	n := math.Exp2(float64(z))
	x = int((lon + 180) / 360 * n)
	r := lat * math.Pi / 180
	y = int((1 - math.Log(math.Tan(r)+1/math.Cos(r))/math.Pi) / 2 * n)
	return x, y
}

// answerTime is the time an OGC answer says it was made.
var answerTime = regexp.MustCompile(`"timeStamp":"[^"]*"`)

// TestWithheldIsAbsentFromEveryPublicRoute (issue 42, part 6): walking
// the server's own router — every read route, a route added later
// included — with the withheld photos' ids, image hashes and media path
// in its variables and their words in its search, from the SQLite path
// and from the memory index, no answer to a reader names them, counts
// them or serves their image; a photo or image route answers 404 as for
// a photo that never was. Editors still read them, and no cache keeps
// what they are answered.
func TestWithheldIsAbsentFromEveryPublicRoute(t *testing.T) {
	h := newHarmArchive(t)
	x, y := tileOf(7, h.withheld.Place.Lon, h.withheld.Place.Lat)
	word := strings.Fields(h.withheld.Caption)[3]
	for _, mode := range []struct {
		name string
		opts Options
	}{{"sqlite", Options{NoMemIndex: true}}, {"memindex", Options{}}} {
		t.Run(mode.name, func(t *testing.T) {
			mode.opts.Media = h.media
			ts, s := serveArchive(t, h.a, mode.opts)
			if s.memIndex != nil {
				waitForIndex(t, s)
			}
			vars := func(id, path, sha string) map[string]string {
				return map[string]string{"id": id, "collection": "photos", "z": "7", "x": strconv.Itoa(x), "y": strconv.Itoa(y),
					"file": "app.js", "path": path, "sha": sha, "slug": "shelters", "dataset": "ucdp-ged", "event": "1", "look": "1"}
			}
			// A photo that never was, for the answers to compare with.
			never := []string{"0123456789abcdef", "never-was.png", strings.Repeat("ab", 32)}
			withheld := []string{h.withheld.ID, h.fromMedia.ImagePath, h.withheld.ImageFile}
			routes, control := routesOf(t, s, vars(withheld[0], withheld[1], withheld[2])), routesOf(t, s, vars(never[0], never[1], never[2]))
			reads := 0
			for i, r := range routes {
				if !slices.Contains(r.methods, http.MethodGet) {
					continue
				}
				reads++
				for _, query := range []string{"", "?q=" + word + "&download=1", "?id={id}&ids={id}&photo={id}"} {
					// (Gzip, which the memory index answers.)
					res, body := get(t, ts, r.path+strings.ReplaceAll(query, "{id}", withheld[0]), "Accept-Encoding", "gzip")
					if res.StatusCode >= 500 {
						t.Errorf("GET %s%s: %s", r.path, query, res.Status)
					}
					// The answer is the one a photo that never was gets,
					// but for the values the request itself gave.
					cres, cbody := get(t, ts, control[i].path+strings.ReplaceAll(query, "{id}", never[0]), "Accept-Encoding", "gzip")
					for j := range never {
						cbody = bytes.ReplaceAll(cbody, []byte(never[j]), []byte(withheld[j]))
					}
					// OGC's timeStamp is the answer's time: a second may
					// turn between the two requests.
					body, cbody = answerTime.ReplaceAll(body, []byte(`"timeStamp":""`)), answerTime.ReplaceAll(cbody, []byte(`"timeStamp":""`))
					if res.StatusCode != cres.StatusCode || !bytes.Equal(body, cbody) {
						t.Errorf("GET %s%s: a withheld photo answers %s, one that never was %s:\n%.300s\n%.300s", r.template, query, res.Status, cres.Status, body, cbody)
					}
					for _, trace := range h.traces() {
						if bytes.Contains(body, []byte(trace)) && !strings.Contains(r.path+query, trace) && !slices.Contains(withheld, trace) {
							t.Errorf("GET %s%s gives away a withheld photo: %q", r.template, query, trace)
						}
					}
				}
			}
			t.Logf("%d read routes walked", reads)
			if reads < 35 {
				t.Fatalf("%d read routes walked", reads)
			}
			// What is counted is what the public may see.
			_, body := get(t, ts, "/api/photos.geojson", "Accept-Encoding", "gzip")
			if n := len(features(t, body).Features); n != h.public {
				t.Errorf("/api/photos.geojson: %d features, want %d", n, h.public)
			}
			_, body = get(t, ts, "/ogc/collections/photos/items?limit=1000")
			if !bytes.Contains(body, []byte(`"numberMatched":`+strconv.Itoa(h.public))) {
				t.Errorf("OGC items do not match %d photos: %.300s", h.public, body)
			}
			// An editor reads the photo, its image and its story step, and
			// no cache keeps them.
			for _, p := range []string{"/photos/" + h.withheld.ID, "/api/photos/" + h.withheld.ID + ".geojson", "/images/" + h.withheld.ImageFile + "/320.jpg",
				"/media/thumb/" + h.fromMedia.ImagePath, "/review/photos/" + h.withheld.ID} {
				res, body := get(t, ts, p, "Authorization", "Bearer "+h.token)
				if res.StatusCode != http.StatusOK || res.Header.Get("Cache-Control") != "private, no-store" {
					t.Errorf("an editor's GET %s: %s, Cache-Control %q: %.200s", p, res.Status, res.Header.Get("Cache-Control"), body)
				}
			}
			_, body = get(t, ts, "/api/stories/shelters", "Authorization", "Bearer "+h.token)
			if !bytes.Contains(body, []byte(h.withheld.ID)) {
				t.Error("an editor's story lost its withheld photo")
			}
		})
	}
}

// TestWithheldIsAbsentFromThePublishedSite: no file of a published site
// (gzipped ones read through, PMTiles' tiles too) names a withheld photo,
// and the story it was in is published without it; the graphic photo is
// published, marked so.
func TestWithheldIsAbsentFromThePublishedSite(t *testing.T) {
	h := newHarmArchive(t)
	dir := t.TempDir()
	images := &publish.Images{Files: imagery.NewFiles(h.a, h.media, true), Originals: true,
		Derivatives: imagery.NewDerivatives(resize.New(resize.DefaultBudget), lane.Default(), "")}
	if _, err := publish.Publish(context.Background(), h.a, dir, publish.Options{IncludeUnplaced: true, Images: images}); err != nil {
		t.Fatal(err)
	}
	site := sitetest.Texts(t, dir)
	graphic := false
	for path, texts := range site {
		for _, trace := range h.traces() {
			if strings.Contains(path, trace) {
				t.Errorf("%s is a withheld photo's", path)
			}
		}
		for _, text := range texts {
			for _, trace := range h.traces() {
				if bytes.Contains(text, []byte(trace)) {
					t.Errorf("%s gives away a withheld photo: %q", path, trace)
				}
			}
			graphic = graphic || bytes.Contains(text, []byte(`"graphic":true`))
		}
	}
	files := len(site)
	if files < 20 || !graphic {
		t.Errorf("%d files published; the graphic photo marked: %v", files, graphic)
	}
	page, err := os.ReadFile(filepath.Join(dir, "stories", "shelters.html"))
	if err != nil || !bytes.Contains(page, []byte(h.graphic.ID)) || !bytes.Contains(page, []byte(`data-testid="graphic"`)) {
		t.Errorf("the published story lacks its graphic photo, blurred: %v", err)
	}
}

// TestWithheldEditsMoveNoPublicETag: a correction of a withheld photo
// leaves every reader's ETag as it was (the answers are the same, and a
// changed tag would tell when hidden photos are edited), while an
// editor's tags move (issue 52, fault 4: v270 → v271, body identical).
func TestWithheldEditsMoveNoPublicETag(t *testing.T) {
	h := newHarmArchive(t)
	token := h.token
	ts, _ := serveArchive(t, h.a, Options{NoMemIndex: true})
	paths := []string{"/", "/about", "/api/photos.geojson", "/api/facets", "/ogc/collections/photos/items"}
	tags := func(header ...string) []string {
		t.Helper()
		var out []string
		for _, p := range paths {
			res, _ := get(t, ts, p, header...)
			out = append(out, res.Header.Get("ETag"))
		}
		return out
	}
	reader, editor := tags(), tags("Authorization", "Bearer "+token)
	place := photo.Place{ID: "gn:170063", Name: "Aleppo", Lon: 37.16, Lat: 36.2, Located: true, Precision: "corrected"}
	if _, err := h.a.Apply(context.Background(), []string{h.withheld.ID}, photo.Change{Author: "rana", Place: &place}); err != nil {
		t.Fatal(err)
	}
	if after := tags(); !slices.Equal(after, reader) {
		t.Errorf("a withheld photo corrected: readers' tags %v → %v", reader, after)
	}
	after := tags("Authorization", "Bearer "+token)
	for i := range after {
		if after[i] == editor[i] {
			t.Errorf("%s: the editor's tag did not move (%s): their pages show the withheld photo", paths[i], after[i])
		}
	}
}

package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/photo"
)

// TestWithholdAfterReading (issue 55, 1 and 3): a reader reads, an editor
// withholds a photo, the reader reads again — the list, the counts (the
// clusters' "matching", the timeline's total, the facets, the explorer's
// "of N"), and the ETags all change, with the memory index and without:
// nothing answers from what it kept of the first read. (The withheld
// tests that withhold before the first read passed with a photo withheld
// without raising the archive's version.)
func TestWithholdAfterReading(t *testing.T) {
	for _, mode := range []struct {
		name string
		opts Options
	}{{"sqlite", Options{NoMemIndex: true}}, {"memindex", Options{}}} {
		t.Run(mode.name, func(t *testing.T) {
			s, ts, a := newTestServer(t)
			_ = s
			type reading struct {
				list, matching, total, reuters int
				csv, ogc                       int
				of, about                      string
				etag, tile                     string
			}
			read := func() reading {
				t.Helper()
				var r reading
				res, body := get(t, ts, "/api/photos.geojson")
				r.list, r.etag = len(features(t, body).Features), res.Header.Get("ETag")
				_, body = get(t, ts, "/api/clusters?zoom=5&bbox=-180,-85,180,85")
				var c struct{ Matching int }
				json.Unmarshal(body, &c)
				r.matching = c.Matching
				_, body = get(t, ts, "/api/timeline?bin=year")
				var tl struct{ Total int }
				json.Unmarshal(body, &tl)
				r.total = tl.Total
				_, body = get(t, ts, "/api/facets?field=agency")
				var f struct {
					Agencies []struct {
						Value string
						Count int
					}
				}
				json.Unmarshal(body, &f)
				for _, v := range f.Agencies {
					if v.Value == "Reuters" {
						r.reuters = v.Count
					}
				}
				_, page := get(t, ts, "/")
				if i := strings.Index(string(page), `data-total="`); i >= 0 {
					r.of, _, _ = strings.Cut(string(page)[i+len(`data-total="`):], `"`)
				}
				_, body = get(t, ts, "/api/photos.csv")
				r.csv = strings.Count(string(body), "\n") - 1 // its header aside
				_, body = get(t, ts, "/ogc/collections/photos/items?resultType=hits")
				var hits struct{ NumberMatched int }
				json.Unmarshal(body, &hits)
				r.ogc = hits.NumberMatched
				_, page = get(t, ts, "/about")
				if i := strings.Index(string(page), `data-testid="counts">`); i >= 0 {
					r.about, _, _ = strings.Cut(string(page)[i:], "</p>")
				}
				res, body = get(t, ts, "/tiles/photos/0/0/0.mvt")
				r.tile = res.Status + string(body)
				return r
			}
			before := read()
			reuters, err := a.Photos(context.Background(), photo.Filter{Agencies: []string{"Reuters"}, Limit: 1})
			if err != nil || len(reuters) == 0 || !reuters[0].Place.Located {
				t.Fatalf("a placed Reuters photo to withhold: %v", err)
			}
			if _, err := a.SetHarm(context.Background(), reuters[0].ID, photo.HarmWithheld, "editor rana", "a test"); err != nil {
				t.Fatal(err)
			}
			after := read()
			want := reading{list: before.list - 1, matching: before.matching - 1, total: before.total - 1, reuters: before.reuters - 1,
				csv: before.csv - 1, ogc: before.ogc - 1, of: strconv.Itoa(mustAtoi(t, before.of) - 1), about: after.about}
			got := after
			got.etag, got.tile = "", ""
			if got != want {
				t.Errorf("after withholding a photo read before: %+v, want %+v", got, want)
			}
			if before.about == "" || !strings.Contains(before.about, strconv.Itoa(before.ogc)) || !strings.Contains(after.about, strconv.Itoa(after.ogc)) {
				t.Errorf("the about page counts %q, then %q; want %d, then %d photos", before.about, after.about, before.ogc, after.ogc)
			}
			if after.tile == before.tile {
				t.Error("the world's tile is the same after a photo in it was withheld")
			}
			for _, path := range []string{"/photos/" + reuters[0].ID, "/api/photos/" + reuters[0].ID + ".geojson"} {
				if res, _ := get(t, ts, path); res.StatusCode != http.StatusNotFound {
					t.Errorf("%s, withheld after it was read: %s, want 404", path, res.Status)
				}
			}
			if after.etag == before.etag || before.etag == "" {
				t.Errorf("the list's ETag %q did not change when a photo in it was withheld", after.etag)
			}
			res, _ := get(t, ts, "/api/photos.geojson", "If-None-Match", before.etag)
			if res.StatusCode == http.StatusNotModified {
				t.Error("the list answers 304 to the tag of its copy that holds the withheld photo")
			}
		})
	}
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("%q is not a number", s)
	}
	return n
}

// TestWithheldImageAnswersNo304 (issue 55, 3): a stranger who kept an
// image's tag learns nothing once its photo is withheld: the image is 404
// with or without If-None-Match, never a 304 answered before the check.
func TestWithheldImageAnswersNo304(t *testing.T) {
	a, _ := imageArchive(t)
	ts, _ := serveArchive(t, a, Options{})
	ps, err := a.Photos(context.Background(), photo.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	var p photo.Photo
	for _, q := range ps {
		if q.ImageFile != "" {
			p = q
			break
		}
	}
	if p.ID == "" {
		t.Fatal("no photo with an image")
	}
	path := "/images/" + p.ImageFile + "/320.jpg"
	res, _ := get(t, ts, path)
	tag := res.Header.Get("ETag")
	if res.StatusCode != http.StatusOK || tag == "" {
		t.Fatalf("the image before: %s, ETag %q", res.Status, tag)
	}
	if _, err := a.SetHarm(context.Background(), p.ID, photo.HarmWithheld, "editor rana", "a test"); err != nil {
		t.Fatal(err)
	}
	for _, h := range [][]string{nil, {"If-None-Match", tag}} {
		if res, _ := get(t, ts, path, h...); res.StatusCode != http.StatusNotFound {
			t.Errorf("the withheld photo's image %v: %s, want 404", h, res.Status)
		}
	}
}

// TestEditorsAndReadersNeverShareAnAnswer (issue 55, 3): with a photo
// withheld, an editor's answer and a reader's never share a tag (an
// editor's is named by the changes only editors see) — a reader's
// If-None-Match with the editor's tag gets the reader's list, never a
// 304, and the reader's list read after the editor's is the reader's; an
// explorer page in English and in Arabic are two answers with two tags.
func TestEditorsAndReadersNeverShareAnAnswer(t *testing.T) {
	e := newEditorServer(t, Options{})
	ctx := context.Background()
	ps, err := e.a.Photos(ctx, photo.Filter{Limit: 1})
	if err != nil || len(ps) == 0 {
		t.Fatal(err)
	}
	if _, err := e.a.SetHarm(ctx, ps[0].ID, photo.HarmWithheld, "editor rana", "a test"); err != nil {
		t.Fatal(err)
	}
	bearer := []string{"Authorization", "Bearer " + e.token}
	reader := func(h ...string) (int, string, int) {
		res, body := get(t, e.ts, "/api/photos.geojson", h...)
		if res.StatusCode == http.StatusNotModified {
			return res.StatusCode, res.Header.Get("ETag"), -1
		}
		return res.StatusCode, res.Header.Get("ETag"), len(features(t, body).Features)
	}
	_, readerTag, readerN := reader()
	_, editorTag, editorN := reader(bearer...)
	if editorN < readerN || editorTag == readerTag {
		t.Errorf("the editor's list: %d photos, tag %q; the reader's %d, tag %q", editorN, editorTag, readerN, readerTag)
	}
	if status, _, n := reader("If-None-Match", editorTag); status != http.StatusOK || n != readerN {
		t.Errorf("a reader sending the editor's tag: %d, %d photos (want 200 and %d)", status, n, readerN)
	}
	if _, _, n := reader(); n != readerN {
		t.Errorf("a reader after the editor: %d photos, want %d", n, readerN)
	}
	// The withheld photo's own answers: an editor's, then a reader's —
	// no cache keeps the editor's for the reader.
	for _, path := range []string{"/photos/" + ps[0].ID, "/api/photos/" + ps[0].ID + ".geojson"} {
		for range 3 { // (the response cache admits an answer asked for twice)
			if res, _ := get(t, e.ts, path, bearer...); res.StatusCode != http.StatusOK {
				t.Fatalf("the editor's %s: %s", path, res.Status)
			}
		}
		if res, _ := get(t, e.ts, path); res.StatusCode != http.StatusNotFound {
			t.Errorf("a reader's %s after the editor's: %s, want 404", path, res.Status)
		}
	}
	en, _ := get(t, e.ts, "/?lang=en")
	ar, _ := get(t, e.ts, "/?lang=ar")
	if tag := en.Header.Get("ETag"); tag != "" && tag == ar.Header.Get("ETag") {
		t.Errorf("the English and Arabic explorer pages share the tag %q", tag)
	}
	// The language an address says, and the one a reader chose with the
	// switch for addresses that say none (its cookie): the response cache
	// keeps the Arabic page (asked twice), and a reader of the plain
	// address still reads English, whatever the browser prefers.
	for range 3 {
		if _, page := get(t, e.ts, "/about?lang=ar"); !strings.Contains(string(page), `<html lang="ar"`) {
			t.Fatal("?lang=ar is not answered in Arabic")
		}
		if _, page := get(t, e.ts, "/about", "Cookie", "lang=ar"); !strings.Contains(string(page), `<html lang="ar"`) {
			t.Fatal("the switch's choice of Arabic is not answered in Arabic")
		}
	}
	if _, page := get(t, e.ts, "/about", "Accept-Language", "ar"); !strings.Contains(string(page), `<html lang="en"`) {
		t.Error("a plain address after Arabic ones is answered the Arabic page the cache kept")
	}
}

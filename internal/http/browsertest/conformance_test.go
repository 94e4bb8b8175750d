package browsertest

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"github.com/syriamap/syriamap/internal/http/httpapi"
	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/http/publish"
	"github.com/syriamap/syriamap/internal/photo"
)

// TestConformanceLiveAndPublished (issue 43, part 1; issue 55, 2): one
// table of queries asked of the live server's API and of a published
// copy of the same archive through its page's static API (in Chromium):
// every answer is the same — the photos, their order and properties, the
// counts, the labels, the CSV, the clusters, one photo, and every bad
// parameter's status and message — over an archive with withheld photos
// (in neither) and graphic ones (in both).
func TestConformanceLiveAndPublished(t *testing.T) {
	t.Parallel()                                                                  // its own server, archive and browser context
	a := httpapitest.GeneratedArchive(t, 11, 1500, httpapitest.ArabicCaptions...) // English and Arabic
	// Photos withheld (in neither) and graphic (in both), events linked,
	// placements verified.
	ids := httpapitest.ConformanceEdits(t, a)
	live, _ := serveArchive(t, a, httpapi.Options{})
	queries := append(httpapitest.ConformanceQueries(), placeSearches(t, a)...)
	queries = append(queries, "events/points.json")
	if _, body := get(t, live, "/api/events/points.json"); !strings.Contains(string(body), `["214808",37.1612,36.2012,20160101,20160101,1,2,1,1]`) {
		i := strings.Index(string(body), `["214808"`)
		t.Errorf("the events' points do not count GED 214808's one public photo: %d %.100s", len(body), body[max(0, i):])
	}
	for _, id := range ids[:4] { // withheld, graphic, withheld, graphic
		queries = append(queries, "photos/"+id+".geojson")
	}
	// The small site loads every point at once; the large one (past its
	// points limit) reads PMTiles and chunks, and counts from the publish.
	for _, site := range []struct {
		name  string
		limit int
	}{{"small", 0}, {"large", 200}} {
		t.Run(site.name, func(t *testing.T) {
			dir := t.TempDir()
			if _, err := publish.Publish(context.Background(), a, dir, publish.Options{IncludeUnplaced: true, PointsLimit: site.limit}); err != nil {
				t.Fatal(err)
			}
			static := httptest.NewServer(http.FileServer(http.Dir(dir)))
			t.Cleanup(static.Close)
			b := newBrowser(t, static, 1280, 800)
			b.run(t, ready(static.URL+"/"))
			// Every query asked of the page at once, one after another in
			// it (a round trip to the browser each would be most of the
			// test's time).
			qs, _ := json.Marshal(queries)
			var fromStatic []struct {
				Status int
				Body   string
			}
			b.run(t, eval(`(async (qs) => { const out = []; for (const q of qs) { const r = await fetch("api/" + q); out.push({Status: r.status, Body: await r.text()}); } return out; })(`+string(qs)+`)`, &fromStatic))
			if len(fromStatic) != len(queries) {
				t.Fatalf("%d answers from the page, want %d", len(fromStatic), len(queries))
			}
			differ, placesFound, placeSearches := 0, 0, 0
			for i, q := range queries {
				res, body := get(t, live, "/api/"+q)
				want, got := normalise(t, q, body), normalise(t, q, []byte(fromStatic[i].Body))
				if found, ok := want.([]any); ok && strings.HasPrefix(q, "places/search") {
					placeSearches++
					if len(found) > 0 {
						placesFound++
					}
				}
				if res.StatusCode != fromStatic[i].Status || !reflect.DeepEqual(want, got) {
					differ++
					t.Errorf("%s: live %d, published %d:\n  live      %.400v\n  published %.400v%s", q, res.StatusCode, fromStatic[i].Status, want, got, propertiesDiffer(want, got))
				}
			}
			t.Logf("%d queries, %d differ; %d of %d place searches find places", len(queries), differ, placesFound, placeSearches)
			if placesFound < placeSearches*2/3 {
				t.Errorf("%d of %d place searches find places: the comparison says little", placesFound, placeSearches)
			}
		})
	}
}

// placeSearches are place searches (as the explorer's Place filter asks
// them, with_photos=true) by spellings of places that hold photos — as
// named, lower case, without the article, other transliterations, the
// first letters, the Arabic name with and without its article and with
// letter variants — and by the ways the press writes the large cities,
// and bad ones.
func placeSearches(t *testing.T, a *archive.Archive) []string {
	t.Helper()
	fc, err := a.Facets(context.Background(), photo.Filter{}, 40, photo.FacetPlace)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range fc.Places {
		p := a.Gazetteer().ByID(c.Value)
		if p == nil {
			continue
		}
		en := p.Name
		names = append(names, en, strings.ToLower(en), strings.TrimPrefix(strings.TrimPrefix(en, "Al-"), "Al "),
			strings.NewReplacer("ou", "u", "ee", "i", "q", "k", "-", " ", "ei", "ay").Replace(en), firstRunes(en, 4))
		if ar := p.NameAr; ar != "" {
			names = append(names, ar, strings.TrimPrefix(ar, "ال"), strings.NewReplacer("ة", "ه", "أ", "ا", "إ", "ا", "ى", "ي").Replace(ar),
				firstRunes(ar, 3))
		}
	}
	names = append(names, "Aleppo", "Halab", "Haleb", "حلب", "Raqqa", "Raqqah", "Ar-Raqqa", "al Rakka", "الرقة", "رقة", "Deir ez-Zor",
		"Dayr az Zawr", "Deir al-Zour", "دير الزور", "Idlib", "Idleb", "إدلب", "ادلب", "Douma", "Duma", "دوما", "Homs", "Hims", "حمص",
		"Qamishli", "Kamishli", "Al-Qamishli", "القامشلي", "Manbij", "Menbij", "منبج", "Afrin", "Efrin", "عفرين", "Daraa", "Deraa",
		"درعا", "Kafranbel", "Kafr Nabl", "Ras al-Ain", "Ras al Ayn", "رأس العين", "Hama", "حماة", "Tell", "Tal", "Kafr", "Ain", "عين",
		"Bab", "Jisr al-Shughur", "Saraqeb", "Ma'arrat al-Nu'man", "Maarat al-Numan")
	var out []string
	for i, n := range names {
		limit := []string{"", "&limit=50", "&limit=3"}[i%3]
		out = append(out, "places/search?with_photos=true&q="+url.QueryEscape(n)+limit)
	}
	return append(out, "places/search?q=", "places/search?q=%20%20", "places/search?q="+strings.Repeat("x", 101),
		"places/search?q=Homs&limit=0", "places/search?q=Homs&limit=51", "places/search?q=Homs&limit=2&limit=3",
		"places/search?q=Homs&with_photos=yes")
}

func firstRunes(s string, n int) string {
	r := []rune(s)
	return string(r[:min(n, len(r))])
}

// normalise is what an answer says, as both paths must say it: a list's
// photos in order; a timeline's bins; the facets' values, labels and
// counts in order; the points.
func normalise(t *testing.T, q string, body []byte) any {
	t.Helper()
	path, _, _ := strings.Cut(q, "?")
	if strings.HasPrefix(path, "photos/") { // one photo
		var f any
		if err := json.Unmarshal(body, &f); err != nil {
			return "not JSON: " + string(body)
		}
		if m, ok := f.(map[string]any); ok && m["error"] != nil {
			return m["error"]
		}
		// The live page's detail (the geocoder's note, first reading and
		// alternatives, the import's sources, when the record was made
		// and changed) is not published: a site's photo is its list's
		// feature.
		ft := feature(f).(map[string]any)
		for _, k := range []string{"note", "alternatives", "geocoded", "sources", "created", "updated"} {
			delete(ft["properties"].(map[string]any), k)
		}
		return ft
	}
	if path == "photos.csv" {
		if json.Valid(body) {
			var v any
			json.Unmarshal(body, &v)
			return v // an error
		}
		// The links aside (see feature): the columns url, image_url
		// and thumbnail_url are blanked.
		rows := strings.Split(string(body), "\n")
		cols := strings.Split(rows[0], ",")
		for i := 1; i < len(rows); i++ {
			r := csv.NewReader(strings.NewReader(rows[i]))
			cells, err := r.Read()
			if err != nil || len(cells) != len(cols) {
				continue // a caption's line break: compared as it is
			}
			for j, c := range cols {
				if c == "url" || c == "image_url" || c == "thumbnail_url" {
					cells[j] = ""
				}
			}
			rows[i] = strings.Join(cells, "\x1f")
		}
		return rows
	}
	if path == "places/search" {
		var found any // every place as found, in order
		if err := json.Unmarshal(body, &found); err != nil {
			return "not JSON: " + string(body)
		}
		return found
	}
	var v map[string]any
	if err := json.Unmarshal(body, &v); err != nil {
		return "not JSON: " + string(body)
	}
	switch path {
	case "events/points.json":
		// A site has no event pages; every event the same, its photos
		// counted alike.
		delete(v, "page")
		return v
	case "photos.geojson":
		fs, ok := v["features"].([]any)
		if !ok {
			return v // an error
		}
		var out []any
		for _, f := range fs {
			out = append(out, feature(f))
		}
		return out
	case "clusters":
		cs, _ := v["clusters"].([]any)
		var rows []string
		for _, c := range cs {
			rows = append(rows, fmt.Sprint(c))
		}
		slices.Sort(rows)
		return map[string]any{"matching": v["matching"], "clusters": rows, "error": v["error"]}
	case "points.json":
		pts, _ := v["points"].([]any)
		var rows []string
		for _, p := range pts {
			rows = append(rows, fmt.Sprint(p))
		}
		slices.Sort(rows)
		return rows
	case "facets":
		delete(v, "took")
		return v
	}
	return v
}

// feature is a GeoJSON Feature as both paths must write it: its id,
// point and properties, links aside (the live server's are absolute and
// the site's relative to it, and the site's images are its own copies).
func feature(f any) any {
	m, ok := f.(map[string]any)
	if !ok {
		return f
	}
	props, _ := m["properties"].(map[string]any)
	kept := map[string]any{}
	for k, v := range props {
		switch k {
		case "url", "image_url", "thumbnail_url", "links":
			continue
		}
		kept[k] = v
	}
	return map[string]any{"id": m["id"], "geometry": m["geometry"], "properties": kept}
}

// propertiesDiffer names the properties two features (or the first two
// that differ of two lists) give differently, for the suite's message.
func propertiesDiffer(want, got any) string {
	if w, ok := want.([]any); ok {
		g, _ := got.([]any)
		for i := range min(len(w), len(g)) {
			if !reflect.DeepEqual(w[i], g[i]) {
				return propertiesDiffer(w[i], g[i])
			}
		}
		return ""
	}
	w, _ := want.(map[string]any)
	g, _ := got.(map[string]any)
	wp, _ := w["properties"].(map[string]any)
	gp, _ := g["properties"].(map[string]any)
	out := ""
	for k := range wp {
		if !reflect.DeepEqual(wp[k], gp[k]) {
			out += fmt.Sprintf("\n  %s: live %v, published %v", k, wp[k], gp[k])
		}
	}
	for k := range gp {
		if _, ok := wp[k]; !ok {
			out += fmt.Sprintf("\n  %s: only published, %v", k, gp[k])
		}
	}
	if !reflect.DeepEqual(w["geometry"], g["geometry"]) {
		out += fmt.Sprintf("\n  geometry: live %v, published %v", w["geometry"], g["geometry"])
	}
	return out
}

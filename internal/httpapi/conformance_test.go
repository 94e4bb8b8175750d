package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/publish"
)

// arabicCaptions are Arabic captions as agencies write them, with places
// written with and without the article, with particles and letter
// variants, for the searches of the conformance suite.
var arabicCaptions = func() []string {
	scenes := []string{"أطفال يلعبون بين الأنقاض", "دخان يتصاعد فوق المباني", "نازحون ينتظرون المساعدات", "رجال يزيلون الركام",
		"سيدة تحمل الخبز", "متطوعون من الدفاع المدني يبحثون عن ناجين"}
	places := []string{"في حلب", "في مدينة الرقة", "بإدلب", "في دوما بريف دمشق", "في حمص", "في دير الزور", "في درعا", "في القامشلي",
		"في منبج", "في عفرين", "في مدينة إدلب", "في ريف حلب الشمالي"}
	months := []string{"كانون الثاني/يناير", "شباط/فبراير", "آذار/مارس", "نيسان/أبريل", "أيار/مايو", "حزيران/يونيو"}
	credits := []string{"(رويترز)", "(أ ف ب)", "تصوير: عمر صنادیقي - رويترز", "(الأناضول)"}
	var out []string
	for i := range 72 {
		out = append(out, fmt.Sprintf("%s %s، سوريا، %d %s %d %s", scenes[i%len(scenes)], places[i%len(places)], 1+i%28, months[i%len(months)],
			2013+i%5, credits[i%len(credits)]))
	}
	return out
}()

// conformanceQueries are the filters the suite asks both paths: windows
// at day, month and year edges, each facet alone and together, boxes,
// searches in English and Arabic (with and without the article and
// particles, letter variants), and their combinations.
func conformanceQueries() []string {
	filters := []string{
		"",
		"from=2016&to=2016", "from=2016-03&to=2016-03", "from=2016-03-01&to=2016-03-31", "from=2015-12-31&to=2016-01-01",
		"from=2014-02-28&to=2014-03-01", "from=2013", "to=2013-12-31", "from=2017-06&to=2017-06",
		"agency=Reuters", "agency=AFP", "agency=Reuters&agency=AFP", "governorate=Aleppo", "governorate=SY02",
		"governorate=Idlib&agency=Reuters", "bbox=36.9,36.0,37.4,36.4", "bbox=36.1,33.3,36.6,33.7&from=2016",
		"q=children", "q=refugee*", "q=damaged%20buildings", "q=Aleppo&from=2015", "q=smoke",
		"q=%D8%AD%D9%84%D8%A8",                                               // حلب
		"q=%D8%A7%D9%84%D8%B1%D9%82%D8%A9",                                   // الرقة
		"q=%D8%B1%D9%82%D8%A9",                                               // رقة, without the article
		"q=%D8%A5%D8%AF%D9%84%D8%A8",                                         // إدلب
		"q=%D8%A7%D8%AF%D9%84%D8%A8",                                         // ادلب, a bare alif
		"q=%D8%AF%D9%88%D9%85%D8%A7",                                         // دوما
		"q=%D8%A3%D8%B7%D9%81%D8%A7%D9%84",                                   // أطفال
		"q=%D8%A7%D9%84%D9%85%D8%B3%D8%A7%D8%B9%D8%AF%D8%A7%D8%AA&from=2014", // المساعدات
		"q=%D9%86%D8%A7%D8%B2%D8%AD%D9%88%D9%86&agency=Reuters",              // نازحون
		"min_confidence=0.9", "min_confidence=0.5&from=2016",
		"q=%D9%88%D8%AD%D9%84%D8%A8",             // وحلب, a particle on
		"q=%D8%A8%D8%A7%D9%84%D8%B1%D9%82%D8%A9", // بالرقة
		"q=%D8%A7%D9%84%D8%B1%D9%82%D9%87",       // الرقه, ta marbuta as ha
		"q=%D8%AD%D9%85%D8%B5&from=2013&to=2015", // حمص
		"q=%D8%B1%D9%8A%D9%81&governorate=SY02",  // ريف
		"q=%D8%AF%D8%AE%D8%A7%D9%86",             // دخان
		"photographer=Rodi%20Said", "photographer=Bassam%20Khabieh&agency=Reuters", "place=ocha:C1007", "place=ocha:C1007&from=2014",
		"governorate=Rif%20Dimashq", "governorate=SY03&governorate=SY07", "unplaced=true", "unplaced=true&from=2016",
		"agency=Reuters&governorate=SY02&from=2016-01&to=2016-06", "bbox=35.5,32.0,42.5,37.5&agency=AFP&from=2014-06",
	}
	var out []string
	for _, f := range filters {
		sep := "?"
		if f == "" {
			sep = ""
		}
		out = append(out,
			"photos.geojson?order=newest&limit=60"+withAmp(f),
			"photos.geojson?order=import&limit=25&offset=10"+withAmp(f),
			"timeline"+sep+f,
			"timeline?bin=day"+withAmp(f),
			"facets"+sep+f,
			"points.json"+sep+f)
	}
	// Errors: the same status and message.
	out = append(out, "photos.geojson?order=oldest", "timeline?bin=week", "photos.geojson?from=2016-13", "facets?bbox=1,2,3", "timeline?bin=day&from=2015")
	return out
}

func withAmp(f string) string {
	if f == "" {
		return ""
	}
	return "&" + f
}

// TestConformanceLiveAndPublished (issue 43, part 1): one table of
// queries asked of the live server's API and of a published copy of the
// same archive through its page's static API (in Chromium): every answer
// is the same — the photos and their order, the counts, the labels.
func TestConformanceLiveAndPublished(t *testing.T) {
	t.Parallel()                                    // its own server, archive and browser context
	a := genArchive(t, 11, 1500, arabicCaptions...) // English and Arabic
	live, _ := serveArchive(t, a, Options{})
	queries := append(conformanceQueries(), placeSearches(t, a)...)
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
					t.Errorf("%s: live %d, published %d:\n  live      %.400v\n  published %.400v", q, res.StatusCode, fromStatic[i].Status, want, got)
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
	fc, err := a.Store().Facets(context.Background(), photo.Filter{}, 40, photo.FacetPlace)
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
	case "photos.geojson":
		fs, ok := v["features"].([]any)
		if !ok {
			return v // an error
		}
		var ids []any
		for _, f := range fs {
			ids = append(ids, f.(map[string]any)["id"])
		}
		return ids
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

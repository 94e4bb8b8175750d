package httpapitest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/paulmach/orb"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/photo"
)

// ArabicCaptions are Arabic captions as agencies write them, with places
// written with and without the article, with particles and letter
// variants, for the searches of the conformance suite.
var ArabicCaptions = func() []string {
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

// ConformanceQueries are the read API's queries (under /api/) the
// conformance suites ask of both sides (the live server and a published
// copy; an archive on SQLite and one on PostgreSQL): windows
// at day, month and year edges, each facet alone and together, boxes,
// searches in English and Arabic (with and without the article and
// particles, letter variants), and their combinations.
func ConformanceQueries() []string {
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
		"verified=1", "verified=true&from=2016", "verified=1&governorate=SY02", "verified=1&q=smoke",
		"agency=Reuters&governorate=SY02&from=2016-01&to=2016-06", "bbox=35.5,32.0,42.5,37.5&agency=AFP&from=2014-06",
		// Full-text operators (issue 55, 2): OR, NOT, AND, brackets, a
		// prefix, an Arabic word with OR.
		"q=children%20OR%20smoke", "q=smoke%20NOT%20Aleppo", "q=children%20AND%20Aleppo", "q=(children%20OR%20smoke)%20Aleppo",
		"q=refugee*%20OR%20damaged%20NOT%20smoke", "q=%D8%AD%D9%84%D8%A8%20OR%20%D8%AF%D9%88%D9%85%D8%A7", "q=Aleppo,%20Syria",
		// A number of another kind, and in Arabic-Indic digits (issue 67, 5).
		"q=2%C2%BD", "q=%D9%A2%D9%A0%D9%A1%D9%A6",
		// The photos linked to an event, or to any (issue 68, 5: a site
		// answers them from its event_photos).
		"event=any", "event=ucdp-ged:214808", "event=ucdp-ged:214808&from=2016-01&to=2016-01", "event=ucdp-ged:1", "event=any&agency=Reuters",
		// A place's name, widened to its spellings in both scripts (issue 68, 3).
		"q=Raqqa", "q=ar-Raqqah", "q=Deir%20ez-Zor", "q=Hims", "q=smoke%20Aleppo", "q=%D8%AD%D9%84%D8%A8&from=2014", // حلب
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
	out = append(out, "photos.geojson?order=oldest", "timeline?bin=week", "photos.geojson?from=2016-13", "facets?bbox=1,2,3", "timeline?bin=day&from=2015",
		// every bad parameter the server refuses (issue 55, 2)
		"facets?limit=0", "facets?limit=abc", "facets?field=nope", "facets?limit=1&limit=2", "photos.geojson?limit=-1", "photos.geojson?offset=x",
		"photos.csv?order=random", "photos.geojson?q=a*", "facets?q=NOT%20smoke", "facets?q=smoke%20OR", "facets?q=(smoke", "points.json?q=a*%20b*%20c*%20d*%20e*",
		"facets?q="+strings.Repeat("word%20", 17), "photos.geojson?bbox=200,0,210,10", "timeline?from=2016-02-30",
		"places/search?q=&with_photos=true", "places/search?q=Aleppo&limit=0&with_photos=true", "places/search?q=Aleppo&with_photos=maybe",
		"clusters?bbox=35,32,43,38", "clusters?zoom=21", "points.json?unplaced=maybe", "photos.geojson?verified=maybe", "points.json?min_confidence=2", "facets?agreement=perhaps",
		"timeline?from=2017&to=2016", "photos.geojson?from=2016&from=2017", "facets?bbox=40,30,35,35",
		// The places a search names, with their spellings (issue 68, 3).
		"search/spellings?q=Raqqa", "search/spellings?q=%D8%A8%D8%A7%D9%84%D8%B1%D9%82%D8%A9", "search/spellings?q=Deir%20ez-Zor",
		"search/spellings?q=Aleppo%20children", "search/spellings?q=smoke", "search/spellings?q=Raqqa%20OR%20Homs",
		// CSV, clusters, one photo
		"photos.csv?order=newest&limit=40", "photos.csv?agency=Reuters&from=2016&limit=30", "photos.csv?q=children%20OR%20smoke",
		"clusters?zoom=5&bbox=35,32,43,38", "clusters?zoom=9&bbox=36.9,36.0,37.4,36.4&agency=Reuters", "clusters?zoom=7&bbox=35,32,43,38&from=2016&to=2016",
		"clusters?zoom=7&bbox=35,32,43,38&event=any", "photos.geojson?event=ucdp-ged", "photos.csv?event=ucdp-ged:214808")
	return out
}

func withAmp(f string) string {
	if f == "" {
		return ""
	}
	return "&" + f
}

// VerifyPlacements has rana confirm the placements f selects and omar
// place each alike without seeing hers: verified.
func VerifyPlacements(t testing.TB, a *archive.Archive, f photo.Filter) {
	t.Helper()
	ctx := context.Background()
	photos, err := a.Photos(ctx, f)
	if err != nil || len(photos) == 0 {
		t.Fatalf("photos to verify: %d, %v", len(photos), err)
	}
	for _, p := range photos {
		if _, err := a.RequestSecondLook(ctx, p.ID, "rana"); err != nil {
			t.Fatal(err)
		}
		if _, err := a.Apply(ctx, []string{p.ID}, photo.Change{Confirm: true, Author: "rana"}); err != nil {
			t.Fatal(err)
		}
	}
	looks, err := a.LookRounds(ctx, "waiting", "", "", 1000)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range looks {
		var at *[2]float64
		if l.First.PlaceID == "" {
			at = &[2]float64{l.First.Lon, l.First.Lat}
		}
		if _, err := a.AnswerSecondLook(ctx, l.ID, "omar", l.First.PlaceID, at, false, ""); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := a.CountPhotos(ctx, photo.Filter{Verified: true}); err != nil || n != len(photos) {
		t.Fatalf("%d photos verified, want %d (%v)", n, len(photos), err)
	}
}

// ConformanceEdits makes the conformance suites' edits to a: of the
// newest Reuters photos, 12 marked withheld and graphic in turn, the
// first two linked to UCDP GED event 214808 (after the bundled events'
// import); AFP's placements in Syria verified by a second look. It
// returns the ids of the photos marked, withheld first.
func ConformanceEdits(t testing.TB, a *archive.Archive) []string {
	t.Helper()
	ctx := context.Background()
	some, err := a.Photos(ctx, photo.Filter{Agencies: []string{"Reuters"}, Newest: true, Limit: 12})
	if err != nil || len(some) < 12 {
		t.Fatalf("photos to mark: %d, %v", len(some), err)
	}
	var ids []string
	for i, p := range some {
		harm := photo.HarmGraphic
		if i%2 == 0 {
			harm = photo.HarmWithheld
		}
		if _, err := a.SetHarm(ctx, p.ID, harm, "editor rana", "a test"); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, p.ID)
	}
	if _, _, err := a.ImportBundledEvents(ctx); err != nil {
		t.Fatal(err)
	}
	for _, p := range some[:2] {
		if _, err := a.SetEventLink(ctx, p.ID, "ucdp-ged", "214808", photo.LinkConfirmed, "editor rana"); err != nil {
			t.Fatal(err)
		}
	}
	VerifyPlacements(t, a, photo.Filter{Agencies: []string{"AFP"}, BBox: &orb.Bound{Min: orb.Point{35, 32}, Max: orb.Point{43, 38}}, Limit: 40})
	return ids
}

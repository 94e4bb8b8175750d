package publish

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/geoparse/lexicon"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/store"
)

var updateVectors = flag.Bool("update", false, "write testdata/site-vectors.json (TestSiteVectors)")

// vectorsPath holds what the server's rules give on generated inputs; the
// published site's scripts are run on the same inputs by
// assets/test/vectors.test.mjs (make test), which fails on any answer
// that is not the server's.
var vectorsPath = filepath.Join("testdata", "site-vectors.json")

// TestSiteVectors: testdata/site-vectors.json is what the server's rules
// give now — photo.ParseDate, web.ParseFilter (boxes among them),
// photo.Window, the search's fold and words (searchFold, searchWords),
// the full-text search as the store runs it in SQLite over a small
// corpus (refused with its message, or the photos found; and when it
// differs, the answer over the captions without their Arabic marks) and the site's
// index of that corpus, and SQLite's max() of a facet's labels. Run with
// -update to write it after changing a rule, then `make test` runs the
// site's scripts on it.
func TestSiteVectors(t *testing.T) {
	got := siteVectors(t)
	if *updateVectors {
		if err := os.WriteFile(vectorsPath, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(vectorsPath)
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("%s is not what the server's rules give now (go test ./internal/http/publish -run TestSiteVectors -update): %v", vectorsPath, err)
	}
}

// siteVectors generates the vectors (seeded: the same every run) and
// writes them as JSON, one vector a line.
func siteVectors(t *testing.T) []byte {
	rng := rand.New(rand.NewPCG(67, 5))
	var b bytes.Buffer
	b.WriteString("{\"note\":\"written by go test ./internal/http/publish -run TestSiteVectors -update; read by assets/test/vectors.test.mjs\"")
	section := func(name string, rows [][]any) {
		fmt.Fprintf(&b, ",\n%q:[", name)
		for i, r := range rows {
			line, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString("\n")
			b.Write(line)
		}
		b.WriteString("\n]")
	}
	dates := dateInputs(rng)
	section("dates", dateVectors(dates))
	section("filters", filterVectors(rng, dates))
	section("windows", windowVectors(rng))
	section("folds", foldVectors(rng))
	site, cases := searchVectors(t, rng)
	c, _ := json.Marshal(site)
	fmt.Fprintf(&b, ",\n\"site\":%s", c)
	section("searches", cases)
	section("widen", widenVectors(site.Spellings, cases))
	section("agency_keys", agencyKeyVectors(rng))
	k, _ := json.Marshal(lexicon.AgencyKeys())
	fmt.Fprintf(&b, ",\n\"agency_table\":%s", k)
	section("labels", labelVectors(t, rng))
	b.WriteString("\n}\n")
	return b.Bytes()
}

func pick[T any](rng *rand.Rand, xs []T) T { return xs[rng.IntN(len(xs))] }

// spaces are what either side might trim: Go's unicode.IsSpace and
// JavaScript's trim() differ on U+0085 and U+FEFF.
var spaces = []string{"", "", "", " ", "\t", "\n", "\u00a0", "\u0085", "\ufeff", "\u3000", "\u2009", "\u200b"}

// dateInputs are dates written right and wrong: every day 0–32 of every
// month 0–13 of a leap year, a common one and the range's edges, and
// random parts in other digits, signs, lengths and spaces.
func dateInputs(rng *rand.Rand) []string {
	var out []string
	for _, y := range []int{1900, 2016, 2017, 2100} {
		for m := 0; m <= 13; m++ {
			out = append(out, fmt.Sprintf("%d-%02d", y, m))
			for d := 0; d <= 32; d++ {
				out = append(out, fmt.Sprintf("%d-%02d-%02d", y, m, d))
			}
		}
	}
	years := []string{"2016", "1900", "2100", "1899", "2101", "0016", "+016", "-016", "20160", "216", "２０１６", "٢٠١٦", "۲۰۱۶",
		"2O16", "", "2016.", "1e03", "0x7E0", "2_016", "2015", "2014", "2018"}
	twos := []string{"01", "02", "09", "10", "11", "12", "00", "13", "1", "001", "+1", "-1", "+0", "31", "30", "29", "28", "32",
		"99", "٠٣", "０３", "a1", "0x", "1.", " 1", "²", "½"}
	seps := []string{"-", "-", "-", "-", "/", "--", "–", "."}
	for range 2400 {
		var s strings.Builder
		s.WriteString(pick(rng, spaces))
		s.WriteString(pick(rng, years))
		for range rng.IntN(4) {
			s.WriteString(pick(rng, seps))
			s.WriteString(pick(rng, twos))
		}
		s.WriteString(pick(rng, spaces))
		out = append(out, s.String())
	}
	return out
}

// spanOf is a parsed date as the vectors give it: its first and last
// days and its normal form (Date.String, as messages name it).
func spanOf(d photo.Date) []any {
	if d.IsZero() {
		return nil
	}
	first, last := d.Span()
	return []any{first, last, d.String()}
}

// dateVectors: [input, [first, last, text] or null] (photo.ParseDate).
func dateVectors(inputs []string) [][]any {
	var out [][]any
	for _, s := range inputs {
		d, err := photo.ParseDate(s)
		if err != nil {
			out = append(out, []any{s, nil})
			continue
		}
		out = append(out, []any{s, spanOf(d)})
	}
	return out
}

// numbers are how a box's or a confidence's numbers may be written.
var numbers = []string{"36.2", "+36.2", "-36.2", "0", "-0", "1", "0.5", ".5", "5.", "1e2", "1E-3", "-1e-0", "180", "-180",
	"180.0000001", "-180.0000001", "90", "-90", "90.1", "1e400", "-1e400", "Inf", "+Inf", "-inf", "infinity", "NaN", "nan",
	"0x10", "0x1p3", "0X1P-2", "1_000", "0x1_0p0", "٣٦", "３６", "36.2.1", "--1", "+-1", "", " ", "36,", "1,5", "0.99999999999999999",
	"1.0000000000000001", "00036.2000", "1e", "e1", ".", "-.5", "+.5e1", "0b1", "0o7", "½", "3²"}

func numberText(rng *rand.Rand) string {
	return pick(rng, spaces) + pick(rng, numbers) + pick(rng, spaces)
}

func bboxText(rng *rand.Rand) string {
	if rng.IntN(3) == 0 {
		// A box that is a box, of plain numbers, in either order.
		x0, x1 := rng.Float64()*400-200, rng.Float64()*400-200
		y0, y1 := rng.Float64()*200-100, rng.Float64()*200-100
		return fmt.Sprintf("%.4f,%.4f,%.4f,%.4f", x0, y0, x1, y1)
	}
	n := 4
	if rng.IntN(8) == 0 {
		n = pick(rng, []int{0, 1, 3, 5})
	}
	parts := make([]string, n)
	for i := range parts {
		parts[i] = numberText(rng)
	}
	return strings.Join(parts, ",")
}

// filterVectors: [query, [parameter, message] or null, from, to, bbox,
// window, values] with what web.ParseFilter gives: from and to as
// dateVectors gives them, the box's four numbers, the window's first and
// last days (photo.WindowOf; null where open), each facet's values (a
// source's as its ID), the least confidence, unplaced and verified.
func filterVectors(rng *rand.Rand, dates []string) [][]any {
	var out [][]any
	values := map[string][]string{
		"agreement": {"agrees", "near", "disagrees", " near ", "Near", "far", ""},
		"reuse":     {"copy", "conflict", " copy", "Copy", "none", ""},
		"unplaced":  {"1", "true", "0", "false", "", " true", "TRUE", "yes", "2"},
		"verified":  {"1", "true", "0", "false", "", " 1", "True", "maybe"},
		"event":     {"any", "ucdp-ged:270123", "acled:SYR1", "a:b c", "a:", ":x", "x:y:z", "ucdp-ged", " any ", "a :b", "a:\u00a0b", "ANY"},
		"q":         {"smoke", "", "a*"},
		"agency": {"AFP", " AFP ", "Reuters", "", "White Helmets", "الدفاع المدني", "الخوذ البيضاء", "syrian civil defense", "SMART",
			"وكالة سمارت للأنباء", "Syrian Civil Defence", "\u0085SMART\ufeff", "smart-news"},
		"photographer": {"Rodi Said", " Rodi Said", "", "Bassam Khabieh", "\u00a0Omar\u0085"},
		"place":        {"ocha:C1007", "gn:170063", " ocha:C1007 ", "", "\ufeffocha:C2320"},
		"governorate":  {"SY02", "Aleppo", " Idlib", "", "SY02\u3000"},
	}
	for range 3000 {
		q := url.Values{}
		for _, name := range []string{"from", "to", "bbox", "min_confidence", "agreement", "reuse", "unplaced", "verified", "event", "q",
			"agency", "photographer", "place", "governorate"} {
			if rng.IntN(3) != 0 {
				continue
			}
			n := 1 + rng.IntN(4)/3 // now and then twice
			if rng.IntN(200) == 0 {
				n = 110 // past web's most values
			}
			for range n {
				switch name {
				case "from", "to":
					q.Add(name, pick(rng, dates))
				case "bbox":
					q.Add(name, bboxText(rng))
				case "min_confidence":
					q.Add(name, numberText(rng))
				default:
					q.Add(name, pick(rng, values[name]))
				}
			}
		}
		enc := q.Encode()
		f, err := web.ParseFilter(q)
		if err != nil {
			out = append(out, []any{enc, paramError(err)})
			continue
		}
		var box any
		if f.BBox != nil {
			box = []float64{f.BBox.Min[0], f.BBox.Min[1], f.BBox.Max[0], f.BBox.Max[1]}
		}
		out = append(out, []any{enc, nil, spanOf(f.From), spanOf(f.To), box, windowOf(f), map[string]any{
			"agencies": nonNil(f.Agencies), "photographers": nonNil(f.Photographers), "places": nonNil(f.PlaceIDs),
			"governorates": nonNil(f.Governorates), "agreements": nonNil(f.Agreements), "minConfidence": f.MinConfidence,
			"unplaced": f.Unplaced, "verified": f.Verified}})
	}
	return out
}

// windowOf is the filter's window as the vectors give it: [first, last],
// each null where the window is open.
func windowOf(f photo.Filter) []any {
	w := photo.WindowOf(f)
	win := []any{nil, nil}
	if w.From {
		win[0] = w.First
	}
	if w.To {
		win[1] = w.Last
	}
	return win
}

// paramError is an error as the API says it: [parameter, message].
func paramError(err error) []any {
	var e *photo.Error
	if !errors.As(err, &e) {
		panic(fmt.Sprintf("not an error of the API: %v", err))
	}
	return []any{e.Parameter, e.Message}
}

// windowVectors: [query, first, last, admitted]: whether photo.Window
// admits a photo dated to a day, month or year (first and last its
// span; 0, 0 undated) in the window of the query's from and to.
func windowVectors(rng *rand.Rand) [][]any {
	date := func() photo.Date {
		y, m := 2014+rng.IntN(4), 1+rng.IntN(12)
		d := 1 + rng.IntN(28)
		if rng.IntN(4) == 0 {
			d = pick(rng, []int{1, 28, 29, 30, 31})
		}
		switch rng.IntN(3) {
		case 0:
			return photo.Date{Year: y, Precision: "year"}
		case 1:
			return photo.Date{Year: y, Month: m, Precision: "month"}
		}
		return photo.Date{Year: y, Month: m, Day: d, Precision: "day"}
	}
	var out [][]any
	for len(out) < 3000 {
		q := url.Values{}
		if rng.IntN(4) != 0 {
			q.Set("from", date().String())
		}
		if rng.IntN(4) != 0 {
			q.Set("to", date().String())
		}
		f, err := web.ParseFilter(q)
		if err != nil {
			continue // a date that is no day, or to before from
		}
		var first, last int
		if rng.IntN(12) != 0 {
			if d := date(); d.Precision != "day" || d.Day <= 28 {
				first, last = d.Span()
			}
		}
		out = append(out, []any{q.Encode(), first, last, photo.WindowOf(f).Admits(first, last)})
	}
	return out
}

// foldTexts are strings a reader types or a caption holds: Arabic with
// its marks (tashkeel, shadda, sukun, dagger alif, Quranic marks),
// tatweel, the alef and yeh forms, Persian letters and digits; Latin with
// accents composed and not; Greek, Turkish and German cases; every kind
// of digit; presentation forms.
var foldAlphabet = []rune("ابتثجحخدذرسشصضطظعغفقكلمنهويأإآٱةىؤئءـکیگپچژ" +
	"\u064b\u064c\u064d\u064e\u064f\u0650\u0651\u0652\u0653\u0654\u0655\u0656\u065f\u0670\u06d6\u06e1\u06ed" +
	"٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹0123456789０１２３²³½¼Ⅻⅷ①" +
	"aeiouAEIOUéÉèçÇñÑåøØæßẞİıIΣσςΑΩЖжǅǈﻻﺎﷲ\u0301\u0300\u0308 -_.,'’،؛؟()*\"")

func foldVectors(rng *rand.Rand) [][]any {
	texts := []string{"دُومَا", "أيار", "إدلب", "آذار", "ٱلرقة", "الرقّة", "حلـــب", "كفرنبل", "کفرنبل", "سوریا", "مؤتة", "٢٠١٦", "۲۰۱۶",
		"ΟΔΟΣ", "Σ", "İdlib", "ISTANBUL", "Straße", "STRASSE", "ǅemal", "ﻻ", "ﷲ", "ﺍﻟﺮﻗﺔ", "2½", "x²", "Ⅻ", "①", "３月", "e\u0301", "é"}
	for range 2500 {
		var s strings.Builder
		for range 1 + rng.IntN(12) {
			s.WriteRune(pick(rng, foldAlphabet))
		}
		texts = append(texts, s.String())
	}
	for _, r := range numberRunes() {
		texts = append(texts, "2"+string(r)+"ب"+string(r))
	}
	var out [][]any
	for _, s := range texts {
		out = append(out, []any{s, searchFold(s), nonNil(searchWords(s))})
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// numberRunes are every rune of Unicode's number classes (Nd, Nl, No),
// as the Go side's tables hold them.
func numberRunes() []rune {
	var out []rune
	for _, tab := range []*unicode.RangeTable{unicode.Nd, unicode.Nl, unicode.No} {
		for _, r16 := range tab.R16 {
			for r := rune(r16.Lo); r <= rune(r16.Hi); r += rune(r16.Stride) {
				out = append(out, r)
			}
		}
		for _, r32 := range tab.R32 {
			for r := rune(r32.Lo); r <= rune(r32.Hi); r += rune(r32.Stride) {
				out = append(out, r)
			}
		}
	}
	return out
}

// searchCorpus are the captions the searches are asked of: English and
// Arabic, with digits of every script, fractions and superscripts,
// marks, particles and the letter variants.
var searchCorpus = []string{
	"Children play in the rubble of Aleppo, Syria, March 3, 2016.",
	"Smoke rises over damaged buildings in Douma, 2½ hours after the strike.",
	"Refugees wait at the border crossing near Azaz, 2 km from Turkey.",
	"A boy carries bread past damaged shops in Idlib, 12 December 2016.",
	"Civil defence volunteers search for survivors in Raqqa at 3² metres down.",
	"Smoke and dust over Homs; children run for cover.",
	"A refugee family in a camp near Idlib, ٣ months after leaving.",
	"Rescue workers in Deir ez-Zor, ۴ days into the siege.",
	"Damaged buildings in Aleppo's old city, １２ March.",
	"Children at a school in Daraa, the 1st day of term.",
	"Children-run shelter in Qamishli; refugees queue for water.",
	"Aid trucks cross into Idlib at Bab al-Hawa, ½ of them empty.",
	"أطفال يلعبون بين الأنقاض في حلب، سوريا، ٣ آذار/مارس ٢٠١٦",
	"دخان يتصاعد فوق المباني في مدينة الرقة",
	"نازحون ينتظرون المساعدات بإدلب",
	"رجال يزيلون الركام في دوما بريف دمشق",
	"سيدة تحمل الخبز في حمص",
	"متطوعون من الدفاع المدني يبحثون عن ناجين في دير الزور",
	"أَطْفَالٌ فِي مَدْرَسَةٍ بِدَرْعَا",
	"دخـــان فوق حلب والرقة",
	"مخيم للنازحين قرب إدلب، ۲۰۱۶",
	"وبالرقة أطفال ينتظرون",
	"طفل يحمل الخبز في عفرين ومنبج",
	"Smoke over Manbij and Afrin; a child waits.",
	"Volunteers dig in Homs' old quarter; 3 survivors found.",
	"Destroyed tank near Kobani, 2015.",
	"Market in Damascus, life goes on; 2016.",
	"A doctor treats a child in Douma's hospital.",
	"Rubble of the mosque in Maarat al-Numan.",
	"Displaced families near Atmeh camp, Idlib governorate.",
	"Smoke over Saraqib, 2016. (Photo by Omar Haj Kadour/AFP)",
	"Children in Raqqa. REUTERS/Rodi Said",
	"دخان فوق معرة النعمان (أ ف ب)",
	"رجال يبحثون عن ناجين في حلب. تصوير: عمر صنادیقي - رويترز",
	"Rescuers search the rubble in Ariha. (Photo by Ahmad Abdo/Syrian Civil Defence)",
	"Smoke over Saqba, 2017. (Photo: SMART News Agency)",
	"دمار في أريحا (الدفاع المدني السوري)",
	"Children wait for bread in Douma. (Ghouta Media Center)",
	// A place's name in other spellings (issue 68, 3).
	"A street in Raqqah, 2017.",
	"Fighters rest in ar-Raqqah.",
	"Children in Hims, 2014.",
	"Aid reaches Dayr az-Zawr.",
	"أطفال بحمص",
}

// searchVocabulary are the words the searches are made of: the corpus's
// words, in other cases and with marks, prefixes, words no caption has,
// and numbers of every script.
func searchVocabulary() []string {
	seen := map[string]bool{}
	var out []string
	add := func(w string) {
		if w != "" && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	for _, c := range searchCorpus {
		for _, w := range strings.Fields(c) {
			add(w)
			add(strings.ToUpper(w))
			add(strings.Trim(w, ",.;"))
		}
	}
	for _, w := range []string{"smok", "child", "refuge", "damag", "aleppo", "ALEPPO", "Alepp", "Damascus", "tank", "nothing", "zebra",
		"حلب", "حَلَب", "الرقه", "رقة", "ادلب", "إدلب", "اطفال", "وحلب", "بالرقة", "للرقة", "حلـب", "ريف", "دمشق", "٢٠١٦", "2016", "۲۰۱۶",
		"١٢", "12", "３", "3", "2", "½", "2½", "²", "3²", "₂", "Ⅻ", "①", "a", "ab", "é", "Éa", "near", "or", "and", "not",
		"Raqqa", "Raqqah", "ar-Raqqah", "Hims", "Dayr", "Zawr", "Deir ez-Zor", "Deir", "ez", "Zor", "الرقة", "بحمص", "دير الزور", "بدير",
		"AFP", "afp", "Agence France-Presse", "أ ف ب", "فرانس برس", "Reuters", "رويترز", "REUTERS", "الأناضول", "Anadolu", "SMART", "الدفاع"} {
		add(w)
	}
	return out
}

// searchOps are what stands between a search's words.
var searchOps = []string{"OR", "AND", "NOT", "OR", "NOT", ",", ".", "-", "+", "/", ":", "^", "'", "،", "|", "&", "~", "؛"}

func searchQuery(rng *rand.Rand, vocab []string) string {
	var parts []string
	for i := range 1 + rng.IntN(5) {
		if i > 0 && rng.IntN(3) == 0 {
			parts = append(parts, pick(rng, searchOps))
		}
		w := pick(rng, vocab)
		switch rng.IntN(14) {
		case 0, 1:
			r := []rune(w)
			w = string(r[:1+rng.IntN(len(r))]) + "*"
		case 2:
			w = `"` + w + `"`
		case 3:
			w = "“" + w + "”"
		case 4:
			w = "«" + w + "»"
		case 5:
			w = "(" + w
		case 6:
			w += ")"
		case 7:
			w = "(" + w + ")"
		case 8:
			w = `"` + w + `"*`
		case 9:
			w = `"` + w + `*"`
		}
		parts = append(parts, w)
	}
	sep := pick(rng, []string{" ", " ", " ", "  ", ", ", "\t"})
	return pick(rng, spaces) + strings.Join(parts, sep) + pick(rng, spaces)
}

// searchVectors asks the store (SQLite's FTS5 and the Arabic index, as
// the server searches) the generated searches over searchCorpus. It
// returns the corpus, the site's index of it (publish's searchIndex, the
// corpus's numbers as the photos' numbers) and [q, [parameter, message]
// or null, the numbers of the captions found].
func searchVectors(t *testing.T, rng *rand.Rand) (searchSite, [][]any) {
	ctx := context.Background()
	db, number := corpusStore(t, searchCorpus)
	// The same captions without their Arabic marks: FTS5's tokenizer
	// splits a word at a mark (فَالٌ is indexed as ف and ال), which the site
	// does not; a search whose answer the marks change says so.
	unmarked := make([]string, len(searchCorpus))
	for k, c := range searchCorpus {
		unmarked[k] = strings.Map(func(r rune) rune {
			if unicode.Is(unicode.Mn, r) {
				return -1
			}
			return r
		}, c)
	}
	bare, bareNumber := corpusStore(t, unmarked)
	agencies := make([]string, len(searchCorpus))
	all, err := db.Photos(ctx, photo.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, p := range all {
		agencies[number[p.ID]] = p.Agency
		ids[p.Agency] = true
	}
	x := newSearchIndex()
	for k, c := range searchCorpus {
		x.add(int32(k), c)
	}
	shards := map[string]json.RawMessage{}
	for key, body := range x.shards() {
		shards[key] = body
	}
	g, err := bundled()
	if err != nil {
		t.Fatal(err)
	}
	spellings := x.spellings(g.NewSearchSpellings(nil))

	vocab := searchVocabulary()
	queries := []string{"2½", "2", "½", "3²", "²", "١٢", "۲۰۱۶", "2016", "smoke", " smoke ", "(smoke", "smoke OR", "NOT smoke",
		"a*", "ab*", "2½*", "½*", "children OR smoke", "(children OR smoke) Aleppo", "smoke NOT Aleppo", "حَلَب", "وحلب",
		// A source named in either script: its photos, whatever their captions say.
		"Agence France-Presse", "أ ف ب", " \"AFP\" ", "فرانس برس", "Reuters", "رويترز", "وكالة رويترز", "AFP OR smoke", "Agence France-Presse*",
		"Syrian Civil Defence", "الدفاع المدني السوري", "White Helmets", "syrian civil defense", "وكالة سمارت للأنباء", "SMART", "smart news",
		"مركز الغوطة الإعلامي", "Ghouta Media Centre", "(Ghouta Media Center)", "\"Ghouta Media Center\"",
		// A place's name in its spellings, and words beside it (issue 68, 3).
		"Raqqa", "raqqah", "ar-Raqqah", "Ar Raqqah", "الرقة", "بالرقة", "والرقة", "للرقة", "Deir ez-Zor", "Dayr az-Zawr", "دير الزور",
		"بدير الزور", "Homs", "Hims", "حمص", "بحمص", "Aleppo", "حلب", "children Raqqa", "Raqqa children", "smoke Homs", "Raqqa OR Homs"}
	for _, r := range numberRunes() {
		queries = append(queries, "2"+string(r), string(r)+"3", "x"+string(r)+"*")
	}
	for range 5000 {
		queries = append(queries, searchQuery(rng, vocab))
	}
	var out [][]any
	for _, q := range queries {
		f, err := web.ParseFilter(url.Values{"q": {q}})
		if err != nil {
			t.Fatal(err)
		}
		answer := func(db *store.DB, number map[string]int) []any {
			found, err := db.Photos(ctx, f)
			if err != nil {
				return []any{paramError(err), nil}
			}
			ks := []int{}
			for _, p := range found {
				ks = append(ks, number[p.ID])
			}
			slices.Sort(ks)
			return []any{nil, ks}
		}
		v := append([]any{q}, answer(db, number)...)
		if other := answer(bare, bareNumber); !reflect.DeepEqual(other, v[1:]) {
			v = append(v, other)
		}
		out = append(out, v)
	}
	return searchSite{Corpus: searchCorpus, Agencies: agencies, AgencyKeys: agencyKeys(ids), Shards: shards, Spellings: spellings}, out
}

// widenVectors are the searches as the spellings read them
// (gazetteer.SearchSpellings.Widen): [q, parts, places named] or [q, null]
// for one searched as it is.
func widenVectors(s *gazetteer.SearchSpellings, searches [][]any) [][]any {
	var out [][]any
	for _, c := range searches {
		q := c[0].(string)
		w, ok := s.Widen(q)
		if !ok {
			out = append(out, []any{q, nil})
			continue
		}
		var places []string
		for _, sp := range w.Spelled {
			places = append(places, sp.Place)
		}
		out = append(out, []any{q, w.Parts, places})
	}
	return out
}

// searchSite is what the site knows of the corpus: its captions, each
// one's agency, the keys that name those agencies (agencyKeys) and the
// index's pieces.
type searchSite struct {
	Corpus     []string                   `json:"corpus"`
	Agencies   []string                   `json:"agencies"`
	AgencyKeys map[string]string          `json:"agency_keys"`
	Shards     map[string]json.RawMessage `json:"shards"`
	// Spellings is the site's table of place spellings (search.js widen).
	Spellings *gazetteer.SearchSpellings `json:"spellings"`
}

// corpusStore is a store of the captions, and each photo's number: its
// caption's in captions.
func corpusStore(t *testing.T, captions []string) (*store.DB, map[string]int) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := store.Open(ctx, filepath.Join(dir, "a.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	g, err := bundled()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "captions.txt")
	if err := os.WriteFile(path, []byte(strings.Join(captions, "\n\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := archive.New(db, g).ImportFile(ctx, path, "", nil); err != nil {
		t.Fatal(err)
	}
	all, err := db.Photos(ctx, photo.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	number := map[string]int{}
	for _, p := range all {
		k := slices.Index(captions, p.Caption)
		if k < 0 {
			t.Fatalf("imported caption %q is not the corpus's", p.Caption)
		}
		number[p.ID] = k
	}
	if len(number) != len(captions) {
		t.Fatalf("%d photos of %d captions", len(number), len(captions))
	}
	return db, number
}

// labelVectors: [labels…, the largest]: a facet value's label when its
// photos carry several is the largest, as SQLite's max() orders text
// (store's facetColumns); asked of SQLite itself.
func labelVectors(t *testing.T, rng *rand.Rand) [][]any {
	raw, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	pool := []string{"Aleppo", "aleppo", "Halab", "Ḥalab", "Ha\u0304lab", "حلب", "حَلَب", "Douma", "Duma", "Dūmā", "Idlib", "Idleb",
		"İdlib", "𝔸leppo", "\uff21leppo", "\ue000", "😀", "Z", "z", "é", "e\u0301", "Rif Dimashq", "Rural Damascus", "ريف دمشق", "", " "}
	var out [][]any
	for range 600 {
		labels := make([]any, 2+rng.IntN(3))
		for i := range labels {
			labels[i] = pick(rng, pool)
		}
		j, _ := json.Marshal(labels)
		var largest string
		if err := raw.QueryRow(`SELECT max(value) FROM json_each(?)`, string(j)).Scan(&largest); err != nil {
			t.Fatal(err)
		}
		out = append(out, append(labels, largest))
	}
	return out
}

// agencyKeyVectors: [name, lexicon.AgencyKey(name)] for every name and
// spelling of the table's agencies, in other cases and spacing, and
// random strings of their letters.
func agencyKeyVectors(rng *rand.Rand) [][]any {
	var names []string
	for k := range lexicon.AgencyKeys() {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, a := range lexicon.Agencies() {
		names = append(names, a.ID, a.English, a.Arabic, strings.ToUpper(a.English), " "+a.Arabic+"،", strings.ReplaceAll(a.English, " ", "-"))
	}
	letters := []rune("AFPafpReutrsأإفبرويترزالأناضولـَ٢2 -.()/·ΣİıÉé")
	for range 400 {
		var b strings.Builder
		for range 1 + rng.IntN(10) {
			b.WriteRune(pick(rng, letters))
		}
		names = append(names, b.String())
	}
	var out [][]any
	for _, n := range names {
		out = append(out, []any{n, lexicon.AgencyKey(n)})
	}
	return out
}

package geocode_test

import (
	"encoding/csv"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geo"

	"github.com/syriamap/syriamap/internal/geoparse/caption"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/geoparse/lexicon"
)

// TestCoverage draws 300 places at random (a fixed seed) from OCHA's
// communities and neighbourhoods in ../shared, writes each name in two
// spellings the press uses (made by rule: al-/el-/none, Tal/Tell/Tall,
// -eh/-a/-ah, doubled letters, ou/u) and looks each up: the gazetteer must
// know a place of that spelling within 2 km of OCHA's point, for at least
// 95% of them. It also geocodes each in a caption that names its
// governorate ("in the village of X, Idlib province") and reports how
// often the photo lands within 2 km.
func TestCoverage(t *testing.T) {
	path := filepath.Join("..", "..", "..", "..", "shared", "geodata", "ocha", "populated_places", "Location.csv")
	f, err := os.Open(path)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI runs with ../shared beside the repo, but: %v", err)
		}
		t.Skipf("no shared data: %v", err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	rng := rand.New(rand.NewPCG(2026, 11))
	rows = rows[1:]
	gc, g := newGeocoder(t)
	const n = 300
	found, placed, total := 0, 0, 0
	var misses, misplaced []string
	for _, i := range rng.Perm(len(rows))[:n] {
		r := rows[i]
		name := plainOCHAName(r[col["LocationName_en"]])
		lat, _ := strconv.ParseFloat(r[col["Latitude_y"]], 64)
		lon, _ := strconv.ParseFloat(r[col["Longitude_x"]], 64)
		at := orb.Point{lon, lat}
		gov := r[col["admin1Name_en"]]
		designator := "village"
		if r[col["location_type"]] == "Neighbourhood" {
			designator = "neighbourhood"
		}
		for _, spelling := range pressSpellings(name) {
			total++
			ok := false
			for _, p := range g.Lookup(spelling) {
				ok = ok || p.Located && geo.Distance(p.Point, at) <= 2000
			}
			if ok {
				found++
			} else if len(misses) < 30 {
				misses = append(misses, fmt.Sprintf("%q (OCHA %s %q)", spelling, r[col["Location_Pcode"]], r[col["LocationName_en"]]))
			}
			text := fmt.Sprintf("People walk in the %s of %s, %s province, Syria, May 2, 2016.", designator, spelling, gov)
			if res := gc.Geocode(caption.Parse(text)); res.Place != nil && res.Place.Located && geo.Distance(res.Place.Point, at) <= 2000 {
				placed++
			} else if testing.Verbose() && len(misplaced) < 40 {
				got := "nothing"
				if res.Place != nil {
					got = fmt.Sprintf("%s (%s, %s, %.0f km off)", res.Place.Name, res.Place.ID, res.Precision, geo.Distance(res.Place.Point, at)/1000)
				}
				misplaced = append(misplaced, fmt.Sprintf("%s → %s", text, got))
			}
		}
	}
	rate := float64(found) / float64(total)
	t.Logf("coverage: %d of %d spellings (%.1f%%) name a place within 2 km of OCHA's point; geocoded in a caption: %d (%.1f%%)",
		found, total, 100*rate, placed, 100*float64(placed)/float64(total))
	for _, m := range misses {
		t.Logf("not found: %s", m)
	}
	for _, m := range misplaced {
		t.Logf("misplaced: %s", m)
	}
	if rate < 0.95 {
		t.Errorf("coverage %.1f%%, want at least 95%%", 100*rate)
	}
}

// plainOCHAName is the name part of OCHA's English name: "Faqie (Kafr
// Nobol)" → "Faqie", "Jalaa - Hama (ne)" → "Jalaa".
func plainOCHAName(s string) string {
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "(ne)"))
	if i := strings.Index(s, "("); i > 0 {
		s = s[:i]
	}
	if a, b, ok := strings.Cut(s, "_"); ok && len(strings.TrimSpace(a)) <= 3 {
		s = strings.TrimSpace(a) + " " + strings.TrimSpace(b) // "Al_Sad"
	}
	for _, sep := range []string{" - ", "/", "\\", "_"} {
		if i := strings.Index(s, sep); i > 0 {
			s = s[:i]
		}
	}
	return strings.TrimSpace(s)
}

// pressSpellings writes a name two ways the press does, by rule. The
// first changes the article and the ending (al-/el-/none; -eh/-a/-ah),
// the second the Tal prefix, the ou/u and doubled letters.
func pressSpellings(name string) []string {
	a := swapEnding(swapArticle(name))
	b := swapDoubling(swapOU(swapTal(name)))
	if b == name {
		b = swapArticle(swapEnding(name))
	}
	return []string{a, b}
}

var articles = []string{"Al-", "Al ", "El-", "El ", "Ar-", "As-", "Ash-", "Ad-", "Az-", "At-", "An-"}

func swapArticle(s string) string {
	for _, a := range articles {
		if rest, ok := strings.CutPrefix(s, a); ok {
			if strings.HasPrefix(a, "Al") {
				return "el-" + rest
			}
			return rest
		}
	}
	return "al-" + s
}

func swapEnding(s string) string {
	switch {
	case strings.HasSuffix(s, "eh"):
		return strings.TrimSuffix(s, "eh") + "a"
	case strings.HasSuffix(s, "ah"):
		return strings.TrimSuffix(s, "ah") + "a"
	case strings.HasSuffix(s, "a"):
		return strings.TrimSuffix(s, "a") + "eh"
	}
	return s
}

func swapTal(s string) string {
	for _, p := range [][2]string{{"Tal ", "Tell "}, {"Tell ", "Tall "}, {"Tall ", "Tal "}} {
		if rest, ok := strings.CutPrefix(s, p[0]); ok {
			return p[1] + rest
		}
	}
	return s
}

func swapOU(s string) string {
	switch {
	case strings.Contains(s, "ou"):
		return strings.Replace(s, "ou", "u", 1)
	case strings.Contains(s, "u"):
		return strings.Replace(s, "u", "ou", 1)
	}
	return s
}

// swapDoubling undoubles the first doubled letter, or doubles the first
// consonant after a vowel inside the name.
func swapDoubling(s string) string {
	r := []rune(s)
	for i := 1; i < len(r); i++ {
		if r[i] == r[i-1] && unicode.IsLetter(r[i]) {
			return string(append(r[:i:i], r[i+1:]...))
		}
	}
	for i := 1; i+1 < len(r); i++ {
		if strings.ContainsRune("aeiou", r[i]) && unicode.IsLower(r[i+1]) && !strings.ContainsRune("aeiouhwy", r[i+1]) {
			return string(r[:i+1]) + string(r[i+1]) + string(r[i+1:])
		}
	}
	return s
}

// A city abroad that the caption reader takes for its country must be one
// the gazetteer lacks: were it there, the list would hide a place the
// geocoder could give (Adana, Mosul and Tripoli are there, Ankara is not).
func TestPlacesAbroadAreNotInTheGazetteer(t *testing.T) {
	_, g := newGeocoder(t)
	for name, code := range lexicon.PlacesAbroad {
		for _, p := range g.Lookup(name) {
			if p.Country != "SY" && (code == "" || p.Country == code) && (p.Kind == gazetteer.City || p.Kind == gazetteer.Town) {
				t.Errorf("%q is in PlacesAbroad, but the gazetteer has %s (%s, %s %s)", name, p.ID, p.Name, p.Kind, p.Country)
			}
		}
	}
}

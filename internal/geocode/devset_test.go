package geocode_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geo"
	"golang.org/x/text/unicode/norm"

	"github.com/syriamap/syriamap/internal/caption"
	"github.com/syriamap/syriamap/internal/gazetteer"
)

// devCaption is one labelled real caption of ../shared/eval (see its
// README): what a person reads in it, and the point a right answer must
// fall near.
type devCaption struct {
	ID           string   `json:"id"`
	Text         string   `json:"text"`
	Date         *string  `json:"date"`
	Photographer *string  `json:"photographer"`
	Agency       *string  `json:"agency"`
	Place        *string  `json:"place"`
	Kind         *string  `json:"place_kind"`
	Lat          *float64 `json:"gold_lat"`
	Lon          *float64 `json:"gold_lon"`
	TolKm        *float64 `json:"tol_km"`
}

// TestDevSet scores the caption reader and geocoder on the real captions
// of ../shared/eval the way its score.py does, logs every miss, and fails
// when a rate falls below the level already reached
// (testdata/devset-levels.json): a ratchet, raised as the geocoder
// improves, so that no change quietly undoes an earlier one. The
// captions are the agencies' text and stay outside the repository.
func TestDevSet(t *testing.T) {
	path := filepath.Join("..", "..", "..", "shared", "eval", "dev-captions.jsonl")
	f, err := os.Open(path)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI runs with ../shared beside the repo, but: %v", err)
		}
		t.Skipf("no shared eval data: %v", err)
	}
	defer f.Close()
	var levels struct{ Place, Date, Credit float64 }
	data, err := os.ReadFile(filepath.Join("testdata", "devset-levels.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &levels); err != nil {
		t.Fatalf("devset-levels.json: %v", err)
	}
	gc, _ := newGeocoder(t)
	var n, places, dates, credits int
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var d devCaption
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			t.Fatalf("%s:%d: %v", path, line, err)
		}
		n++
		// The geocode command joins a caption's lines; so does score.py.
		c := caption.Parse(strings.Join(strings.Fields(d.Text), " "))
		r := gc.Geocode(c)
		verdict := devPlaceVerdict(d, r.Place)
		dateOK := c.Date.String() == str(d.Date)
		creditOK := devCreditOK(d, c.Credit)
		if verdict == "ok" {
			places++
		}
		if dateOK {
			dates++
		}
		if creditOK {
			credits++
		}
		if verdict != "ok" || !dateOK || !creditOK {
			got := "none"
			if r.Place != nil {
				got = fmt.Sprintf("%s (%s %s)", r.Place.Name, r.Place.Kind, r.Place.ID)
			}
			t.Logf("%s: place %s want %q got %s | date %q want %q | credit %q/%q want %q/%q",
				d.ID, verdict, str(d.Place), got, c.Date.String(), str(d.Date),
				c.Credit.Photographer, c.Credit.Agency, str(d.Photographer), str(d.Agency))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatalf("%s holds no captions", path)
	}
	rate := func(k int) float64 { return float64(k) / float64(n) }
	t.Logf("dev set: place %.1f%%  date %.1f%%  credit %.1f%%  (n=%d)", 100*rate(places), 100*rate(dates), 100*rate(credits), n)
	for _, m := range []struct {
		name       string
		got, level float64
	}{{"place", rate(places), levels.Place}, {"date", rate(dates), levels.Date}, {"credit", rate(credits), levels.Credit}} {
		if m.got+1e-9 < m.level {
			t.Errorf("%s rate %.1f%% fell below the level reached, %.1f%%", m.name, 100*m.got, 100*m.level)
		}
	}
}

// devKindKm is score.py's radius by kind, when a caption gives none.
var devKindKm = map[string]float64{"neighbourhood": 3, "camp": 5, "town": 10, "city": 15, "region": 60, "governorate": 80}

// devPlaceVerdict is score.py's place_verdict: "ok", "fallback" or "miss".
func devPlaceVerdict(d devCaption, p *gazetteer.Place) string {
	kind := str(d.Kind)
	switch {
	case kind == "outside-syria":
		if p != nil && p.Country == "SY" {
			return "miss"
		}
		return "ok"
	case kind == "":
		if p != nil {
			return "miss"
		}
		return "ok"
	case p == nil:
		return "miss"
	}
	if d.Lat == nil {
		a, b := devSkeleton(str(d.Place)), devSkeleton(p.Name)
		if a != "" && a == b {
			return "ok"
		}
		return "miss"
	}
	if !p.Located {
		return "miss"
	}
	tol := devKindKm[kind]
	if d.TolKm != nil && *d.TolKm > 0 {
		tol = *d.TolKm
	} else if tol == 0 {
		tol = 15
	}
	if geo.Distance(orb.Point{*d.Lon, *d.Lat}, p.Point)/1000 > tol {
		return "miss"
	}
	if (kind == "neighbourhood" || kind == "camp") && (p.Kind == gazetteer.City || p.Kind == gazetteer.Region || p.Kind.Admin()) {
		return "fallback"
	}
	return "ok"
}

// devWords is score.py's words: ASCII letters, lower case, articles out.
func devWords(s string) []string {
	var b strings.Builder
	for _, r := range norm.NFKD.String(s) {
		if r < unicode.MaxASCII {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	var out []string
	for _, w := range strings.FieldsFunc(b.String(), func(r rune) bool { return r < 'a' || r > 'z' }) {
		switch w {
		case "al", "el", "ar", "as", "ad", "ash", "at", "az", "an", "the":
		default:
			out = append(out, w)
		}
	}
	return out
}

var (
	devVowels  = regexp.MustCompile(`[aeiouyw]`)
	devDigraph = strings.NewReplacer("kh", "k", "sh", "s", "th", "t", "q", "k")
)

// devSkeleton is score.py's skeleton: consonants, digraphs as one, no
// doubling.
func devSkeleton(s string) string {
	w := devVowels.ReplaceAllString(devDigraph.Replace(strings.Join(devWords(s), "")), "")
	var b []byte
	for i := 0; i < len(w); i++ {
		if i == 0 || w[i] != w[i-1] {
			b = append(b, w[i])
		}
	}
	return string(b)
}

// devAgencySame is score.py's table of one agency under several names.
var devAgencySame = map[string]string{"theassociatedpress": "ap", "associatedpress": "ap", "appress": "ap",
	"epaefe": "epa", "europeanpressphotoagency": "epa", "aa": "anadoluagency", "anadolu": "anadoluagency",
	"agencefrancepresse": "afp", "agencefrancepress": "afp"}

func devAgencyKey(s string) string {
	k := strings.Join(devWords(s), "")
	if v, ok := devAgencySame[k]; ok {
		return v
	}
	return k
}

var devAgencySplit = regexp.MustCompile(`[/,()]| via `)

// devCreditOK is score.py's credit_ok.
func devCreditOK(d devCaption, got caption.Credit) bool {
	gp, ga := str(d.Photographer), str(d.Agency)
	if gp == "" && ga == "" {
		return got.Photographer == "" && got.Agency == ""
	}
	if gp != "" {
		if strings.Join(devWords(gp), " ") != strings.Join(devWords(got.Photographer), " ") {
			return false
		}
	} else if got.Photographer != "" {
		return false
	}
	if ga == "" {
		return got.Agency == ""
	}
	key := devAgencyKey(got.Agency)
	for _, a := range devAgencySplit.Split(ga, -1) {
		if len(devWords(a)) > 0 && devAgencyKey(a) == key {
			switch key {
			case "handout", "photo", "photos":
				continue
			}
			return true
		}
	}
	return false
}

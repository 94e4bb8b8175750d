// Package evalset reads labelled captions and scores readings of them the
// way ../shared/eval/score.py does: the real captions of ../shared/eval
// (labelled with a gold point and a radius) and the captions written for
// the tests (labelled with a place's name). The geocoder's tests and the
// program that fits its confidence model both score with it, so that the
// two cannot drift apart.
package evalset

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geo"
	"golang.org/x/text/unicode/norm"

	"github.com/syriamap/syriamap/internal/geoparse/caption"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/geoparse/lexicon"
)

// Caption is one labelled caption. Real captions carry an ID, a kind of
// place and, where one could be cited, a gold point with a radius;
// written ones carry the expected place's name and, for a place abroad,
// its country.
type Caption struct {
	ID           string  `json:"id"`
	Text         string  `json:"text"`
	Date         *string `json:"date"`
	Photographer *string `json:"photographer"`
	Agency       *string `json:"agency"`
	Place        *string `json:"place"`
	// PlaceEn is an Arabic label's place in English, where given: what
	// score.py compares an answer's name with.
	PlaceEn   *string `json:"place_en"`
	PlaceKind *string `json:"place_kind"`
	// Parent is the place holding the labelled one, as the labeller wrote
	// it: a quarter's city ("Aleppo", "حلب").
	Parent  *string  `json:"parent"`
	Lat     *float64 `json:"gold_lat"`
	Lon     *float64 `json:"gold_lon"`
	TolKm   *float64 `json:"tol_km"`
	Country string   `json:"country"`
	// Source is the page the caption was copied from: captions of one
	// gallery share it, and share a fold (see Folds).
	Source string `json:"source"`
}

// Real reports whether the caption is one of the real labelled ones,
// scored by point, rather than one written for the tests.
func (c Caption) Real() bool { return c.ID != "" }

// Read reads a JSON Lines file of labelled captions; an error names the
// file and line.
func Read(path string) ([]Caption, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Caption
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var c Caption
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}

// Verdicts of a place.
const (
	OK       = "ok"
	Fallback = "fallback" // a quarter or camp answered with its city
	Miss     = "miss"
)

// Namer finds the places a name may mean; *gazetteer.Gazetteer is one.
type Namer interface {
	Lookup(name string) []*gazetteer.Place
}

// PlaceVerdict says whether p, the place answered (nil: unplaced), is
// right for c: for a real caption as score.py's place_verdict does, for a
// written one when p is one of the places the expected name may mean.
func PlaceVerdict(c Caption, p *gazetteer.Place, names Namer) string {
	if !c.Real() {
		return writtenVerdict(c, p, names)
	}
	kind := str(c.PlaceKind)
	switch {
	case kind == "outside-syria":
		if p != nil && p.Country == "SY" {
			return Miss
		}
		return OK
	case kind == "" || kind == "none":
		// The Arabic labels write "none" for a caption that names no
		// place, where the English ones write null.
		if p != nil {
			return Miss
		}
		return OK
	case p == nil:
		return Miss
	case c.Lat == nil || c.Lon == nil:
		return namedVerdict(c, p)
	case !p.Located:
		return Miss
	}
	tol := kindKm[kind]
	if c.TolKm != nil && *c.TolKm > 0 {
		tol = *c.TolKm
	} else if tol == 0 {
		tol = 15
	}
	if geo.Distance(orb.Point{*c.Lon, *c.Lat}, p.Point)/1000 > tol {
		return Miss
	}
	if (kind == "neighbourhood" || kind == "camp") && coarse(p.Kind) {
		return Fallback
	}
	return OK
}

// writtenVerdict is PlaceVerdict for a written caption: right when p is
// one of the places the expected name may mean, in its country.
func writtenVerdict(c Caption, p *gazetteer.Place, names Namer) string {
	switch {
	case c.Place == nil && p == nil:
		return OK
	case c.Place == nil || p == nil:
		return Miss
	case c.Country != "" && p.Country != c.Country:
		return Miss
	case slices.Contains(names.Lookup(*c.Place), p):
		return OK
	}
	return Miss
}

// namedVerdict is PlaceVerdict for a real caption labelled with a name
// and no point, as score.py's: the answer's skeleton, a final h dropped,
// against any run of one to three of the label's words ("Khaldia" ~
// "Khalidiyah", "Waer neighbourhood in Homs" ~ "Wa'er"), a city or
// province answered for a quarter, camp, town or village the label names
// beside it a fallback; or the answer's Arabic name's words all among an
// Arabic label's.
func namedVerdict(c Caption, p *gazetteer.Place) string {
	label := str(c.Place)
	if c.PlaceEn != nil && *c.PlaceEn != "" {
		label = *c.PlaceEn
	}
	if b := strings.TrimRight(Skeleton(p.Name), "h"); b != "" {
		gw := words(label)
		for i := range gw {
			for j := i + 1; j <= min(i+3, len(gw)); j++ {
				if strings.TrimRight(Skeleton(strings.Join(gw[i:j], " ")), "h") != b {
					continue
				}
				switch str(c.PlaceKind) {
				case "neighbourhood", "camp", "town", "village":
					if coarse(p.Kind) {
						return Fallback
					}
				}
				return OK
			}
		}
	}
	ga, pa := arabicWords(str(c.Place)), arabicWords(p.NameAr)
	if len(ga) == 0 || len(pa) == 0 {
		return Miss
	}
	for _, w := range pa {
		if !slices.Contains(ga, w) {
			return Miss
		}
	}
	return OK
}

// coarse is score.py's COARSE: the kinds of place a quarter, camp or town
// answered by is only a fallback.
func coarse(k gazetteer.Kind) bool {
	return k == gazetteer.City || k == gazetteer.Region || k.Admin()
}

// arabicWords are score.py's Arabic words of s: runs of Arabic letters,
// folded (fold_arabic), the bare article left out.
func arabicWords(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(norm.NFKC.String(s), func(r rune) bool { return !arabicLetter(r) }) {
		if w = lexicon.FoldArabic(w); w != "" && w != "ال" {
			out = append(out, w)
		}
	}
	return out
}

// arabicLetter is score.py's class of the letters of an Arabic word.
func arabicLetter(r rune) bool {
	return r >= 0x0621 && r <= 0x064A || r >= 0x0660 && r <= 0x0669 || r >= 0x066E && r <= 0x06D3 || r == 0x06A9 || r == 0x06CC
}

// DateOK reports whether the caption reader's date is the labelled one.
func DateOK(c Caption, got caption.Date) bool { return got.String() == str(c.Date) }

// kindKm is score.py's radius by kind, when a caption gives none.
var kindKm = map[string]float64{"neighbourhood": 3, "camp": 5, "town": 10, "city": 15, "region": 60, "governorate": 80}

// words is score.py's Latin words: runs of Latin letters, accents
// dropped, lower case, articles out.
func words(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(norm.NFKC.String(s), func(r rune) bool {
		return !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= 0xC0 && r <= 0x24F)
	}) {
		var b strings.Builder
		for _, r := range norm.NFKD.String(w) {
			if r < unicode.MaxASCII {
				b.WriteRune(unicode.ToLower(r))
			}
		}
		switch w := b.String(); w {
		case "", "al", "el", "ar", "as", "ad", "ash", "at", "az", "an", "the":
		default:
			out = append(out, w)
		}
	}
	return out
}

var (
	vowels  = regexp.MustCompile(`[aeiouyw]`)
	digraph = strings.NewReplacer("kh", "k", "sh", "s", "th", "t", "q", "k")
)

// Skeleton is score.py's skeleton of a name: consonants, digraphs as one,
// no doubling.
func Skeleton(s string) string {
	w := vowels.ReplaceAllString(digraph.Replace(strings.Join(words(s), "")), "")
	var b []byte
	for i := 0; i < len(w); i++ {
		if i == 0 || w[i] != w[i-1] {
			b = append(b, w[i])
		}
	}
	return string(b)
}

// agencySame is score.py's table of one agency under several names.
var agencySame = map[string]string{"theassociatedpress": "ap", "associatedpress": "ap", "appress": "ap",
	"epaefe": "epa", "europeanpressphotoagency": "epa", "aa": "anadoluagency", "anadolu": "anadoluagency",
	"agencefrancepresse": "afp", "agencefrancepress": "afp"}

func agencyKey(s string) string {
	k := strings.Join(words(s), "")
	if v, ok := agencySame[k]; ok {
		return v
	}
	return k
}

var agencySplit = regexp.MustCompile(`[/,()]| via `)

// arabicAgencies reads the agencies of the Arabic labels, written as the
// captions write them, as the file's notes do ("'أ ف ب' = AFP"):
// score.py's words keep ASCII letters only, and would match none of them.
var arabicAgencies = map[string]string{"أ ف ب": "AFP", "أ.ف.ب": "AFP", "أ. ف. ب": "AFP", "الفرنسية": "AFP",
	"afp_tickers": "AFP", "رويترز": "Reuters", "أ ب": "AP", "سانا": "SANA", "الأناضول": "Anadolu Agency"}

// CreditOK is score.py's credit_ok for a real caption (the agencies of
// Arabic labels read by arabicAgencies); a written one wants the
// photographer and agency exactly.
func CreditOK(c Caption, got caption.Credit) bool {
	gp, ga := str(c.Photographer), str(c.Agency)
	if latin, ok := arabicAgencies[ga]; ok {
		ga = latin
	}
	if !c.Real() {
		return got.Photographer == gp && got.Agency == ga
	}
	if gp == "" && ga == "" {
		return got.Photographer == "" && got.Agency == ""
	}
	if gp != "" {
		if strings.Join(words(gp), " ") != strings.Join(words(got.Photographer), " ") {
			return false
		}
	} else if got.Photographer != "" {
		return false
	}
	if ga == "" {
		return got.Agency == ""
	}
	key := agencyKey(got.Agency)
	for _, a := range agencySplit.Split(ga, -1) {
		if len(words(a)) > 0 && agencyKey(a) == key {
			switch key {
			case "handout", "photo", "photos":
				continue
			}
			return true
		}
	}
	return false
}

// Answer is one caption's answered place, scored.
type Answer struct {
	Placed     bool
	Confidence float64
	Right      bool // the place verdict is OK
}

// Calibration is how well confidences sort right answers from wrong ones,
// as score.py reports it.
type Calibration struct {
	Misses int // wrong places
	Caught int // of them, in the least confident fifth of the answers
	High   int // answers at confidence ≥ 0.8
	// HighRight of them are right.
	HighRight int
}

// Calibrate computes the calibration of answers the way score.py does:
// unplaced answers rank below every placed one, and among equal
// confidences the wrong ones first.
func Calibrate(answers []Answer) Calibration {
	type ranked struct {
		conf float64
		ok   bool
	}
	rs := make([]ranked, len(answers))
	for i, a := range answers {
		rs[i] = ranked{-1, a.Right}
		if a.Placed {
			rs[i].conf = a.Confidence
		}
	}
	slices.SortStableFunc(rs, func(a, b ranked) int {
		switch {
		case a.conf < b.conf:
			return -1
		case a.conf > b.conf:
			return 1
		case a.ok == b.ok:
			return 0
		case !a.ok:
			return -1 // score.py sorts (confidence, right) pairs: wrong first
		}
		return 1
	})
	var cal Calibration
	fifth := max(1, len(rs)/5)
	for i, r := range rs {
		if !r.ok {
			cal.Misses++
			if i < fifth {
				cal.Caught++
			}
		}
		if r.conf >= 0.8 {
			cal.High++
			if r.ok {
				cal.HighRight++
			}
		}
	}
	return cal
}

// String writes the calibration as score.py's line does.
func (c Calibration) String() string {
	return fmt.Sprintf("%d/%d place misses in the least confident fifth; answers at confidence >= 0.8: %d/%d right",
		c.Caught, c.Misses, c.HighRight, c.High)
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

package conflict

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geo"

	"github.com/syriamap/syriamap/internal/photo"
)

// The linking rule: which events a photo may document, scored and
// ranked, and which the rule would suggest to an editor ("likely"). Its
// numbers are all here.

// Sighting is what a photo says of where and when it was taken, as the
// linker reads it.
type Sighting struct {
	// Point is the photo's place; Located false for none.
	Point   orb.Point
	Located bool
	// PlaceKind is the gazetteer kind of its place (city, town, village,
	// neighbourhood, camp, district, governorate …); Fallback says the
	// caption named something smaller the gazetteer lacks, so the point
	// is of what holds it.
	PlaceKind string
	Fallback  bool
	// Governorate is the place's governorate as the gazetteer names it.
	Governorate string
	// From and To bound the photo's date (YYYYMMDD): one day, a month or
	// a year; 0 for an undated photo.
	From, To int
	// Lag is how many days after the photo's its date may be, by where
	// the date came from (photo.DateLagDays): an import's date is often
	// its page's, published a day or two later (2); the caption's, a
	// file's or an editor's is the photo's own (0).
	Lag int
	// Caption is the caption's text, for its words.
	Caption string
	// Sentences are the caption's sentences, the one that describes the
	// photo first (caption.Sentences); nil reads Caption as one. A
	// sentence after the first that is the agencies' stock background
	// ("The war that began in 2011 has killed …") is not read.
	Sentences []string
}

// Candidate is an event the photo may document.
type Candidate struct {
	Event  Event   `json:"-"`
	Score  float64 `json:"score"`
	Likely bool    `json:"likely"`
	Why    string  `json:"why"`
	// Group are the ids of the dataset's rows of Event's incident, its
	// own first, when the dataset holds more than one (Rank): an editor
	// confirms them together. Nil for an incident of one row.
	Group []string `json:"group,omitempty"`
}

// Radii of the areas, in km: an event's by its precision, a photo's
// place by its kind.
var (
	// eventRadiusKm is GED's where_prec 1 (the place: a few km) and 2
	// (within about 25 km of it), ACLED's geo_precision 1 and 2.
	eventRadiusKm = map[int]float64{1: 5, 2: 25}
	// districtRadiusKm bounds a GED where_prec 3 (a district) or ACLED
	// geo_precision 3 event about its point, with its governorate: the
	// districts' polygons are not bundled.
	districtRadiusKm = 50.0
)

// AftermathDays is how long after an event a photo of it is often taken
// (the damage, the funerals): the photo's window reaches back so far.
const AftermathDays = 2

// likelyScore is the least score the rule suggests to an editor.
const likelyScore = 0.4

// fitScore is what each point of how an event fits the caption's
// incident (its means, its sides: incident.fit) adds to its score: a few
// hundredths, to order rows of one day and place, never to lift an event
// of another day or place above the photo's.
const fitScore = 0.02

// likelySlackKm is how far beyond the photo's place an event known to
// its place (where_prec 1) or near it (2, whose point is the place named)
// may be and still be likely: a photo elsewhere documents another place.
var likelySlackKm = map[int]float64{1: 3, 2: 5}

// Abstains reports why the linker suggests nothing for s, "" when it may:
// a photo placed only to a region or not at all, dated to a year or not
// at all, or marked in its caption as an archive or file photo.
func Abstains(s Sighting) string { return abstains(s, readIncident(s)) }

func abstains(s Sighting, in incident) string {
	switch {
	case !s.Located:
		return "the photo has no place"
	case s.PlaceKind == "governorate" || s.PlaceKind == "country" || s.PlaceKind == "region":
		return "the photo is placed only to a region"
	case s.From == 0:
		return "the photo has no date"
	case days(s.From, s.To) > 31:
		return "the photo is dated only to its year"
	case in.illustrative:
		return "the caption marks it an illustration, an archive or a file photo"
	case !in.violence:
		return "the caption tells of no violence or its aftermath (GED codes deaths in fighting, not what else a war shows; the agencies' background sentence on the war is not the photo's)"
	}
	return ""
}

// TellsOfViolence reports whether a caption tells of violence or its
// aftermath — a strike, shelling, an explosion, fighting, the damage,
// the wounded and the dead, a rescue, a funeral — in English or Arabic:
// what a GED event is. A photo of people in a camp, a convoy, a portrait
// or a street may be taken where and when events happened without
// documenting any, and is not suggested. The words are the vocabulary of
// war reporting, not of one archive's captions.
func TellsOfViolence(caption string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(caption), func(r rune) bool { return !unicode.IsLetter(r) && r != '-' }) {
		w = strings.Trim(w, "-")
		for _, stem := range violenceStems {
			if strings.HasPrefix(w, stem) {
				return true
			}
		}
		if violenceWords[w] {
			return true
		}
	}
	return false
}

// violenceStems begin the words of violence and its aftermath;
// violenceWords are whole words (too short, or too common a start, to
// be stems). Arabic words are matched as written, with or without their
// article and a joined preposition.
var (
	violenceStems = []string{"airstrike", "air-strike", "strike", "shell", "bomb", "barrel", "missile", "rocket", "mortar", "explo", "blast",
		"attack", "assault", "damag", "destroy", "destruct", "rubble", "debris", "ruin", "crater", "wound", "injur", "casualt", "kill",
		"massacre", "rescu", "survivor", "smoke", "fire", "burn", "clash", "fighting", "combat", "battle", "shoot", "sniper", "gunfire",
		"chemical", "funeral", "mourn", "corpse", "martyr", "victim", "suicide", "ambush", "raid",
		"غار", "قصف", "انفجار", "تفجير", "دمار", "مدمر", "ركام", "أنقاض", "انقاض", "جرح", "جريح", "مصاب", "إصاب", "اصاب", "قتل", "قتيل",
		"اشتباك", "معارك", "معركة", "قذيف", "برميل", "براميل", "صاروخ", "صواريخ", "هجوم", "حريق", "دخان", "جنازة", "تشييع", "شهيد", "شهداء",
		"كيماوي", "كيميائي", "مجزرة", "استهداف", "مفخخ", "الغار", "للغار", "بغار", "القصف", "بالقصف", "الانفجار", "الدمار", "الركام", "الأنقاض",
		"الجرحى", "القتلى", "الاشتباك", "المعارك", "القذائف", "البراميل", "الصواريخ", "الهجوم"}
	violenceWords = map[string]bool{"dead": true, "bodies": true, "body": true, "helmets": true, "hit": true, "struck": true, "shot": true,
		"died": true}
)

// isFilePhoto reports an archive photo as the wires mark it in capitals:
// "FILE PHOTO", "FILE -" (illustrativeWords hold the rest).
func isFilePhoto(caption string) bool {
	return strings.Contains(caption, "FILE PHOTO") || strings.Contains(caption, "FILE -") || strings.HasPrefix(caption, "FILE ") ||
		strings.Contains(strings.ToLower(caption), "(file photo)") || strings.Contains(caption, "أرشيف") || strings.Contains(caption, "صورة أرشيفية")
}

// Reach bounds where the photos of event e may have been taken, with the
// largest place a photo may be at (a city, or a fallback to what holds
// it); ok is false for an event known only to its governorate or worse,
// which is matched by its governorate's name, not a box.
func Reach(e Event) (b orb.Bound, ok bool) {
	var km float64
	switch p := e.WherePrec; {
	case p <= 2:
		km = eventRadiusKm[p]
	case p == 3:
		km = districtRadiusKm
	default:
		return b, false
	}
	km += 2 * maxPlaceKm
	return geo.NewBoundAroundPoint(orb.Point{e.Lon, e.Lat}, km*1000), true
}

// maxPlaceKm is the largest photo's place the rule weighs (a city's): a
// photo placed to a district is weighed as a city.
const maxPlaceKm = photo.MaxSettlementRadiusKm

// Window is the span of days (YYYYMMDD) of events a photo of s may
// document: its own days, and AftermathDays before; for a date that may
// be Lag days after the photo's (a page's), Lag days more.
func Window(s Sighting) (from, to int) {
	return AddDays(s.From, -AftermathDays-s.Lag), s.To
}

// Match scores event e for sighting s; ok is false when the two cannot
// meet, in place or in time.
func Match(s Sighting, e Event) (c Candidate, ok bool) { return newMatcher(s).match(e) }

// matcher is Match for one sighting and many events: what the sighting
// alone decides (its window, its caption's words, whether the linker
// abstains) is worked out once.
type matcher struct {
	s            Sighting
	from, to     int
	captionWords map[string]bool
	abstains     bool
	incident     incident
}

func newMatcher(s Sighting) *matcher {
	m := &matcher{s: s}
	if s.Located && s.From != 0 {
		m.from, m.to = Window(s)
		m.incident = readIncident(s)
		m.captionWords = wordSet(m.incident.text)
		m.abstains = abstains(s, m.incident) != ""
	}
	return m
}

func (m *matcher) match(e Event) (c Candidate, ok bool) {
	s := m.s
	if !s.Located || s.From == 0 {
		return c, false
	}
	if e.DateEnd < m.from || e.DateStart > m.to {
		return c, false
	}
	place, placeWhy, ok := placeScore(s, e)
	if !ok {
		return c, false
	}
	when, whenWhy := m.timeScore(e)
	words, wordsWhy := wordScore(m.captionWords, e)
	fit, fitWhy := m.incident.fit(e)
	score := max(0, place*when*(0.75+0.25*words)+fitScore*float64(fit))
	c = Candidate{Event: e, Score: math.Round(score*100) / 100}
	c.Likely = c.Score >= likelyScore && !m.abstains && m.nearEnough(e)
	c.Why = describe(e, placeWhy+", "+whenWhy, strings.Trim(wordsWhy+"; "+fitWhy, "; "))
	return c, true
}

// nearEnough reports whether event e is near enough the photo in time
// and place to be likely: of the photo's day or the day before, unless
// the caption tells of the aftermath; and, known to a place or near it,
// no farther from the photo's place than both precisions allow.
func (m *matcher) nearEnough(e Event) bool {
	s := m.s
	if days(e.DateEnd, s.From) > 1 && !m.incident.aftermath {
		return false
	}
	slack, ok := likelySlackKm[e.WherePrec]
	if !ok {
		return true
	}
	photoKm := min(photo.PlaceRadiusKm(s.PlaceKind), maxPlaceKm)
	if s.Fallback {
		photoKm *= 2
	}
	return geo.Distance(s.Point, orb.Point{e.Lon, e.Lat})/1000 <= photoKm+slack
}

// timeScore is the rule's timeScore, read against the day the caption
// says the incident was when it speaks of a day before the photo's
// ("strikes on Saturday" under a Sunday photo): that day's event then
// scores as the photo's own, and the photo's day's as the day after.
func (m *matcher) timeScore(e Event) (float64, string) {
	k := m.incident.daysBefore
	if k == 0 {
		return timeScore(m.s, e)
	}
	said := m.s
	said.From, said.To = AddDays(said.From, -k), AddDays(said.To, -k)
	switch {
	case e.DateStart == e.DateEnd && e.DateStart == said.From:
		return 1, fmt.Sprintf("%s before the photo, as the caption says", dayWord(k))
	case e.DateStart == e.DateEnd && e.DateStart > said.From:
		return 0.8 - 0.1*float64(days(said.From, e.DateStart)-1), "the photo's day, not the one its caption names"
	}
	return timeScore(said, e)
}

// Describe says what event e was, in words, with its dataset and id:
// "state-based; 44 killed — GED 270123".
func Describe(e Event) string { return describe(e, "", "") }

// describe is how the linker explains a candidate: how it meets the
// photo in place and time, what the event was, what the caption's words
// share with it.
func describe(e Event, meets, words string) string {
	var why []string
	for _, w := range []string{meets, e.Kind, deathsWord(e.Deaths), words} {
		if w != "" {
			why = append(why, w)
		}
	}
	return strings.Join(why, "; ") + " — " + DatasetName(e.Dataset) + " " + e.ID
}

func deathsWord(n int) string {
	if n <= 0 {
		return ""
	}
	return fmt.Sprintf("%d killed", n)
}

// DatasetName is a dataset's short name: GED, ACLED.
func DatasetName(dataset string) string {
	return map[string]string{GED: "GED", ACLED: "ACLED"}[dataset]
}

// placeScore is how well the event's area meets the photo's, with the
// words that say how.
func placeScore(s Sighting, e Event) (float64, string, bool) {
	// An area's reach is bounded by a city's: the index looks no further.
	photoKm := min(photo.PlaceRadiusKm(s.PlaceKind), maxPlaceKm)
	if s.Fallback {
		photoKm *= 2 // somewhere inside what holds the place named
	}
	d := geo.Distance(s.Point, orb.Point{e.Lon, e.Lat}) / 1000
	sameGov := s.Governorate != "" && sameGovernorate(s.Governorate, e.Adm1)
	switch p := e.WherePrec; {
	case e.Dataset == GED && p <= 2 || e.Dataset == ACLED && p <= 2:
		reach := photoKm + eventRadiusKm[p]
		if d > reach {
			return 0, "", false
		}
		closeness := 1 - 0.5*d/reach
		switch {
		case p == 1 && d <= photoKm:
			return closeness, "same " + placeWord(s.PlaceKind), true
		case p == 1:
			return closeness * 0.9, fmt.Sprintf("%.0f km away", d), true
		}
		return closeness * 0.8, fmt.Sprintf("within 25 km (%.0f km)", d), true
	case e.Dataset == GED && p == 3 || e.Dataset == ACLED && p == 3:
		// A district: its governorate, and near enough to be in it.
		if !sameGov || d > districtRadiusKm+photoKm {
			return 0, "", false
		}
		return 0.5, "same district", true
	case e.Dataset == GED && (p == 4 || p == 5):
		// A governorate or a larger area: by the governorate, never a
		// radius.
		if !sameGov {
			return 0, "", false
		}
		return 0.3, "same governorate", true
	case e.Dataset == GED && p == 6:
		// The country: only the day and the actors can say.
		return 0.15, "known only to the country", true
	}
	return 0, "", false // water or airspace
}

// timeScore is how well the event's days meet the photo's: the same day
// best, the day before (the aftermath) less, and an event spread over
// weeks at a point less still, so that it never outranks one of the
// photo's own day.
func timeScore(s Sighting, e Event) (float64, string) {
	span := days(e.DateStart, e.DateEnd) + 1
	spread := 1 / math.Sqrt(float64(span)) // a day 1, a week 0.38, a month 0.18
	photoDay := s.From == s.To
	switch {
	case photoDay && span == 1 && e.DateStart == s.From:
		return 1, "same day"
	case photoDay && span == 1 && e.DateStart < s.From && s.Lag > 0:
		// The photo's own day may be any of the Lag days before its
		// date (a page's): those score nearly as the same day, older
		// ones as the aftermath of the earliest.
		n := days(e.DateStart, s.From)
		if n <= s.Lag {
			return 1 - 0.05*float64(n), fmt.Sprintf("%s before the import's date (a page's, often a day or two after the photo's)", dayWord(n))
		}
		return 0.8 - 0.1*float64(n-s.Lag-1), fmt.Sprintf("%s before the import's date", dayWord(n))
	case photoDay && span == 1 && e.DateStart < s.From:
		return 0.8 - 0.1*float64(days(e.DateStart, s.From)-1), fmt.Sprintf("%s before the photo", dayWord(days(e.DateStart, s.From)))
	case photoDay:
		return 0.9 * spread, fmt.Sprintf("over %d days around the photo's", span)
	}
	// A photo dated to its month: any day of it.
	return 0.5 * spread, "in the photo's month"
}

// wordScore is how much the caption's words say of the event: the place
// the event names, or what it was (a market, a hospital, an air strike),
// 0 to 1.
func wordScore(cw map[string]bool, e Event) (float64, string) {
	var hits []string
	for w := range wordSet(e.Where + " " + e.Headline) {
		if len(w) >= 4 && cw[w] && !stopWords[w] && strings.IndexFunc(w, unicode.IsLetter) >= 0 { // a year says nothing of which event
			hits = append(hits, w)
		}
	}
	sort.Strings(hits)
	if len(hits) == 0 {
		return 0, ""
	}
	return math.Min(1, float64(len(hits))/3), "the caption says " + strings.Join(hits, ", ")
}

// stopWords are the headlines' words that say nothing of one event.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`syria syrian with from that were have than more after before which when where this these those into
		under over about their they them been also held including include members member while during near since through against
		killed regime forces government city town village province governorate district countryside area areas rebels people`) {
		m[w] = true
	}
	return m
}()

func wordSet(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		out[w] = true
	}
	return out
}

// sameGovernorate compares a gazetteer's governorate name with GED's
// adm_1 ("Homs Governorate", "Hamah Governorate", "Al Hasakah …").
func sameGovernorate(gaz, adm1 string) bool {
	a, b := governorateKey(gaz), governorateKey(adm1)
	return a == b || strings.Contains(a, b) || strings.Contains(b, a)
}

// governorateKey folds a governorate's name to one spelling: lower
// case, without " Governorate", its article, hyphens and apostrophes,
// and GED's transliterations as the gazetteer's.
func governorateKey(s string) string {
	s = govPunct.Replace(strings.ToLower(strings.TrimSuffix(strings.TrimSpace(s), " Governorate")))
	if a, ok := governorateAliases[s]; ok {
		return a
	}
	for _, article := range []string{"al ", "ar ", "as "} {
		s = strings.TrimPrefix(s, article)
	}
	if a, ok := governorateAliases[s]; ok {
		return a
	}
	return s
}

var (
	govPunct           = strings.NewReplacer("-", " ", "'", "", "’", "")
	governorateAliases = map[string]string{"hamah": "hama", "dara": "daraa", "idleb": "idlib", "hasakeh": "hasakah", "hassakeh": "hasakah",
		"lattakia": "latakia", "rif dimashq": "rural damascus", "damascus countryside": "rural damascus", "ar raqqah": "raqqa", "raqqah": "raqqa",
		"deir ez zor": "deir ezzor", "dayr az zawr": "deir ezzor", "deir ezzor": "deir ezzor", "as suwayda": "suwayda", "suwayda": "suwayda",
		"al qunaytirah": "quneitra", "qunaytirah": "quneitra", "tartous": "tartus"}
)

func placeWord(kind string) string {
	if kind == "" {
		return "place"
	}
	return kind
}

func dayWord(n int) string {
	if n == 1 {
		return "the day"
	}
	return fmt.Sprintf("%d days", n)
}

// Rank scores the events for s and returns the candidates, best first;
// when several of one day and place tie, the caption's words order them.
// An event an editor could never confirm from a photo (Listed) is none;
// the rows of one incident are one candidate (groupIncidents).
func Rank(s Sighting, events []Event) []Candidate {
	var out []Candidate
	m := newMatcher(s)
	for _, e := range events {
		if !Listed(e) {
			continue
		}
		if c, ok := m.match(e); ok {
			out = append(out, c)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].Event.Deaths > out[j].Event.Deaths
	})
	return groupIncidents(out)
}

// Listed reports whether event e may be a photo's candidate: not a GED
// row known only to the country (where_prec 6 or 7) or to its year
// (date_prec 5), which no photo could show an editor to be its own. An
// event's page may still name the photos near it (Match).
func Listed(e Event) bool {
	return e.Dataset != GED || e.WherePrec < 6 && e.DatePrec < 5
}

// groupIncidents folds the rows a dataset holds of one incident — the
// same days, the same point and precision, a source headline in common
// (GED writes a row for each dyad of an incident, and one an incident's
// sources told again) — into the best-ranked of them, whose Group then
// names them all; cands are best first, and stay so.
func groupIncidents(cands []Candidate) []Candidate {
	type place struct {
		dataset    string
		start, end int
		lon, lat   float64
		prec       int
	}
	leads := map[place][]int{}
	out := cands[:0]
	for _, c := range cands {
		e := c.Event
		k := place{e.Dataset, e.DateStart, e.DateEnd, e.Lon, e.Lat, e.WherePrec}
		merged := false
		for _, i := range leads[k] {
			if shareHeadline(out[i].Event.Headline, e.Headline) {
				if out[i].Group == nil {
					out[i].Group = []string{out[i].Event.ID}
				}
				out[i].Group, merged = append(out[i].Group, e.ID), true
				break
			}
		}
		if !merged {
			leads[k] = append(leads[k], len(out))
			out = append(out, c)
		}
	}
	for i := range out {
		if g := out[i].Group; g != nil {
			at := strings.LastIndex(out[i].Why, " — ")
			out[i].Why = out[i].Why[:at] + fmt.Sprintf("; one incident in %d rows (%s)", len(g), strings.Join(g, ", ")) + out[i].Why[at:]
		}
	}
	return out
}

// shareHeadline reports whether two rows' source headlines (GED's,
// several between semicolons) have one in common.
func shareHeadline(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	for _, x := range strings.Split(a, ";") {
		x = strings.TrimSpace(x)
		if x == "" {
			continue
		}
		for _, y := range strings.Split(b, ";") {
			if strings.TrimSpace(y) == x {
				return true
			}
		}
	}
	return false
}

func toTime(d int) time.Time {
	return time.Date(d/10000, time.Month(d/100%100), d%100, 0, 0, 0, 0, time.UTC)
}

func days(from, to int) int { return int(toTime(to).Sub(toTime(from)).Hours() / 24) }

// AddDays is day d (YYYYMMDD) n days later (earlier for n < 0).
func AddDays(d, n int) int { return yyyymmdd(toTime(d).AddDate(0, 0, n)) }

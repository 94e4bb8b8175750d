// Package geocode decides where a captioned photo was taken: it weighs the
// place names a caption reader found against a gazetteer and chooses one
// place, with a confidence, the text it matched and the alternatives.
package geocode

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/paulmach/orb"

	"github.com/syriamap/syriamap/internal/caption"
	"github.com/syriamap/syriamap/internal/gazetteer"
)

// Gazetteer is what the geocoder needs of a gazetteer.
type Gazetteer interface {
	// Scan appends the place names found in text to dst.
	Scan(text string, dst []gazetteer.Hit) []gazetteer.Hit
	// ByID returns a place by id, or nil.
	ByID(id string) *gazetteer.Place
	// Contains reports whether q holds p by the gazetteer's own links.
	Contains(q, p *gazetteer.Place) bool
	// GovernorateOf returns the governorate p lies in, or nil.
	GovernorateOf(p *gazetteer.Place) *gazetteer.Place
}

// Precision says how the result's place relates to where the photo was.
type Precision string

// Result precisions.
const (
	// Exact: the place the caption names as where the photo was taken.
	Exact Precision = "exact"
	// Fallback: the caption names a more specific place that the gazetteer
	// lacks, or that has no point; this is the most specific place that
	// holds it.
	Fallback Precision = "fallback"
	// None: nothing could be placed.
	None Precision = "none"
)

// Result is where the geocoder put a photo.
type Result struct {
	// Place is nil when nothing could be placed.
	Place     *gazetteer.Place
	Precision Precision
	// Confidence is from 0 to 1: how sure the geocoder is that the photo
	// was taken at Place (at its precision).
	Confidence float64
	// Mention is the caption text that named the place (for a fallback, the
	// more specific name that could not be placed).
	Mention string
	// Note says, for a fallback, why the photo is placed where it is.
	Note         string
	Alternatives []Alternative
}

// Alternative is a place the geocoder weighed and did not choose.
type Alternative struct {
	Place   *gazetteer.Place
	Score   float64 // on the scale of Result.Confidence
	Mention string
}

// Geocoder chooses photo places. It is safe for concurrent use.
type Geocoder struct {
	g    Gazetteer
	pool sync.Pool
}

// New returns a Geocoder over g.
func New(g Gazetteer) *Geocoder {
	return &Geocoder{g: g, pool: sync.Pool{New: func() any { return &work{} }}}
}

type work struct {
	hits  []gazetteer.Hit
	cands []candidate
	known []bool // by mention: the gazetteer knows a name in it
}

// candidate is one reading of one name in the caption.
type candidate struct {
	hit     gazetteer.Hit
	mention int // index in Caption.Mentions
	score   float64
	base    float64 // score before context, for confidence
	// far is true when the caption names other places and this one is
	// nowhere near them.
	far bool
	// whole is true when the hit is the whole name in the caption, or the
	// name with words such as Square or camp: not a piece of a person's,
	// an organisation's or a longer unknown name.
	whole bool
}

// Geocode chooses where the photo of caption c was taken.
func (gc *Geocoder) Geocode(c caption.Caption) Result {
	w := gc.pool.Get().(*work)
	defer gc.pool.Put(w)
	w.hits = gc.scan(c, w.hits[:0])
	w.hits = gc.possessiveHits(c, w.hits)
	w.cands = gc.candidates(c, w.hits, w.cands[:0])
	gc.markFar(c, w.cands)
	w.known = w.known[:0]
	for i := range c.Mentions {
		m := &c.Mentions[i]
		k := false
		for _, cd := range w.cands {
			k = k || cd.whole && !cd.far && cd.hit.Start < m.End && m.Start < cd.hit.End
		}
		w.known = append(w.known, k)
	}
	return gc.choose(c, w.cands, w.known)
}

// farMetres is how far a reading may lie from every other place a caption
// names before it is doubted.
const farMetres = 80000

// markFar lowers, and marks far, the readings that do not fit the other
// places the caption names: readings outside the country the caption puts
// the photo in; readings that the next name does not hold though the
// caption says it does ("the Hamidiyeh market in the old city of
// Damascus"); and readings far from every other place named (a loose
// spelling that matches a village across the country, Hamouria for Al
// Hamra, while the caption speaks of eastern Ghouta). A far reading is
// no anchor for others, and no known name for the fallback rules.
func (gc *Geocoder) markFar(c caption.Caption, cands []candidate) {
	// The country a caption puts the photo in ("…, Kilis, Turkey, March
	// 2", "in Lebanon's Bekaa valley"): readings in another country are
	// doubted too (Arbil in Iraq is not ‘Irbīn near Damascus).
	if country := photoCountry(c); country != "" {
		for i := range cands {
			// A crossing is on both sides of the border.
			if p := &cands[i]; p.hit.Place.Country != country && p.hit.Place.Kind != gazetteer.Crossing {
				p.far = true
				p.score *= 0.3
			}
		}
	}
	// "the Hamidiyeh market in the old city of Damascus": a name the
	// caption puts inside the next one must be read as a place inside it;
	// and a quarter of a city is not what "in Aleppo province" holds.
	for i := range cands {
		p := &cands[i]
		holder := nextHolder(c, p.mention)
		if holder < 0 || !p.hit.Place.Located {
			continue
		}
		area := isArea(c.Mentions[holder].Designator)
		held, anchored := false, false
		for j := range cands {
			q := &cands[j]
			if q.mention != holder || !q.whole || !q.hit.Exact || !q.hit.Place.Located {
				continue
			}
			anchored = true
			pp, qp := p.hit.Place, q.hit.Place
			// "in Sanliurfa province": the province, which the gazetteer
			// may know only by its capital, holds the place.
			sameArea := area && (pp.Governorate.PCode != "" && pp.Governorate.PCode == qp.Governorate.PCode || pp.Country == qp.Country && pp.Country != "SY")
			if sameArea || gc.contains(qp, pp) || within(pp.Point, qp.Point, 25000) {
				held = true
			}
		}
		quarterInProvince := p.hit.Place.Kind == gazetteer.Neighbourhood && area
		if anchored && !held || quarterInProvince {
			p.far = true
			p.score *= 0.3
		}
	}
	// A reading far from every other place named: judged against the
	// readings as they stand, then marked all at once.
	var doubted []int
	for i := range cands {
		p := &cands[i]
		if !p.hit.Place.Located || p.hit.Place.Kind == gazetteer.Governorate || p.hit.Place.Kind == gazetteer.Region {
			continue
		}
		others, near := 0, false
		for j := range cands {
			q := &cands[j]
			m := c.Mentions[q.mention]
			// Only close spellings anchor: two loose ones far apart must
			// not doubt each other.
			if q.mention == p.mention || !q.hit.Exact || !q.whole || q.far || !q.hit.Place.Located || q.base < 0.1 || m.Role == caption.Origin || m.Role == caption.Target {
				continue
			}
			others++
			if q.hit.Place.Kind == gazetteer.Governorate && q.hit.Place.Governorate.PCode == p.hit.Place.Governorate.PCode ||
				within(p.hit.Place.Point, q.hit.Place.Point, farMetres) || gc.g.Contains(q.hit.Place, p.hit.Place) {
				near = true
				break
			}
		}
		if others > 0 && !near {
			doubted = append(doubted, i)
		}
	}
	for _, i := range doubted {
		p := &cands[i]
		p.far = true
		if p.hit.Exact {
			p.score *= 0.8
		} else {
			p.score *= 0.5
		}
	}
}

// nextHolder returns the mention that the caption says holds mention i
// ("X in Y", "X of Y", "X, Y" in one clause), or -1.
func nextHolder(c caption.Caption, i int) int {
	if i+1 >= len(c.Mentions) {
		return -1
	}
	m, n := c.Mentions[i], c.Mentions[i+1]
	if n.Sentence != m.Sentence || n.Start-m.End > 60 || n.Entity != caption.MaybePlace {
		return -1
	}
	// "northeast of Damascus", "near Damascus" name a neighbour, not a
	// holder.
	if isDirection(n.Designator) || n.Designator == "border" || n.Cue != "in" && n.Cue != "" {
		return -1
	}
	between := c.Text[m.End:n.Start]
	if strings.ContainsAny(between, ".;()") || strings.Count(between, ",") > 1 {
		return -1
	}
	linked := strings.HasPrefix(between, ",")
	for _, w := range strings.FieldsFunc(strings.ToLower(between), func(r rune) bool { return r == ' ' || r == '-' || r == ',' }) {
		switch {
		case w == "in" || w == "of":
			linked = true
		case w == "the" || w == "a" || w == "an" || facilityWords[w] || holderWords[w]:
		default:
			return -1 // "fled Raqqa city stand near their tent in Ras al-Ain"
		}
	}
	if linked {
		return i + 1
	}
	return -1
}

// holderWords may stand between a place and the place holding it, besides
// facilityWords: "in the rebel-held city of".
var holderWords = map[string]bool{"rebel": true, "held": true, "controlled": true, "government": true,
	"besieged": true, "opposition": true, "neighbourhood": true, "neighborhood": true, "area": true,
	"quarter": true, "suburb": true, "suburbs": true, "region": true, "syrian": true, "capital": true}

// isArea reports whether a designator names an area larger than a city.
func isArea(d string) bool { return d == "province" || d == "governorate" || d == "countryside" }

// neighbours maps the countries captions name to their ISO codes.
var neighbours = map[string]string{"syria": "SY", "turkey": "TR", "lebanon": "LB", "jordan": "JO",
	"iraq": "IQ", "kurdistan": "IQ", "iraqi kurdistan": "IQ", "israel": "IL"}

// photoCountry returns the country the first sentence places the photo
// in: the last country named as "…, Turkey," or "in Lebanon's …", not one
// named as a border ("near the border with Syria"). It returns "" when the
// caption names none, or Syria.
func photoCountry(c caption.Caption) string {
	code := ""
	for _, m := range c.Mentions {
		if m.Entity != caption.Country || m.Sentence != 0 {
			continue
		}
		if m.Role == caption.Context && m.Cue == "" || m.Role == caption.Where && m.Cue == "in" && m.Designator == "" || m.Possessive {
			code = neighbours[strings.ToLower(m.Text)]
		}
	}
	if code == "SY" {
		return ""
	}
	return code
}

// nameWord reports whether w can be part of a name after a possessive:
// capitalised, an article joined by a hyphen (al-Shaar), or "old" and
// "city" as in "Aleppo's old city".
func nameWord(w string) bool {
	if w == "" {
		return false
	}
	if c := w[0]; c >= 'A' && c <= 'Z' || c >= 0x80 {
		return true
	}
	if i := strings.IndexByte(w, '-'); i > 0 && i+1 < len(w) {
		return true
	}
	return w == "old" || w == "city" || w == "quarter"
}

// scan finds the place names around the caption's capitalised names only:
// a place name needs a capital, and may begin with up to three lower-case
// words ("old city of Aleppo", "eastern Ghouta") or end with two ("Bab
// al-Hawa border crossing"). Scanning these windows instead of the whole
// caption halves the work. Names that the caption reader knows are not
// places are passed over.
func (gc *Geocoder) scan(c caption.Caption, dst []gazetteer.Hit) []gazetteer.Hit {
	text := c.Text
	start, end := -1, -1
	flush := func() {
		if start < 0 {
			return
		}
		n := len(dst)
		dst = gc.g.Scan(text[start:end], dst)
		for i := n; i < len(dst); i++ {
			dst[i].Start += start
			dst[i].End += start
		}
	}
	for _, m := range c.Mentions {
		if m.End <= c.CreditEnd && m.Start >= c.CreditStart && c.CreditEnd > 0 {
			continue
		}
		switch m.Entity {
		case caption.Country, caption.Nationality, caption.Organisation, caption.Event, caption.Quoted:
			// Syria, Syrian, Jaish al-Islam, Eid al-Fitr, “I Love
			// Damascus”: a place inside them would be weighed down to
			// nothing, so they are not scanned.
			continue
		}
		ws, we := skipFunctionWords(text, wordsBefore(text, m.Start, 3), m.Start), wordsAfter(text, m.End, 2)
		if start >= 0 && ws <= end {
			end = max(end, we)
			continue
		}
		flush()
		start, end = ws, we
	}
	flush()
	return dst
}

// functionWords never begin a place name; a window need not fold them.
var functionWords = map[string]bool{"in": true, "the": true, "of": true, "at": true, "on": true,
	"near": true, "a": true, "an": true, "to": true, "from": true, "and": true, "by": true}

// skipFunctionWords moves i past the function words before limit.
func skipFunctionWords(text string, i, limit int) int {
	for i < limit {
		j := strings.IndexByte(text[i:limit], ' ')
		if j < 0 || !functionWords[text[i:i+j]] {
			return i
		}
		i += j + 1
	}
	return i
}

// wordsBefore returns the offset n words before i in text.
func wordsBefore(text string, i, n int) int {
	for ; n > 0 && i > 0; n-- {
		j := strings.LastIndexByte(text[:i], ' ')
		if j < 0 {
			return 0
		}
		for j > 0 && text[j-1] == ' ' {
			j--
		}
		if j == 0 {
			return 0
		}
		k := strings.LastIndexByte(text[:j], ' ')
		i = k + 1
	}
	return i
}

// wordsAfter returns the offset n words after i in text.
func wordsAfter(text string, i, n int) int {
	for ; n > 0 && i < len(text); n-- {
		j := strings.IndexByte(text[i:], ' ')
		if j < 0 {
			return len(text)
		}
		i += j
		for i < len(text) && text[i] == ' ' {
			i++
		}
		k := strings.IndexByte(text[i:], ' ')
		if k < 0 {
			return len(text)
		}
		i += k
	}
	return i
}

// possessiveHits reads "X's Y" as "Y of X" too, so that "Aleppo's Old City"
// finds the Old City of Aleppo. The hits it adds span X's Y.
func (gc *Geocoder) possessiveHits(c caption.Caption, hits []gazetteer.Hit) []gazetteer.Hit {
	for _, m := range c.Mentions {
		if !m.Possessive {
			continue
		}
		rest := c.Text[m.End:]
		skip := len(rest) - len(strings.TrimLeft(rest, "'’s "))
		words := strings.Fields(rest[skip:])
		end := m.End + skip
		var synthetic []gazetteer.Hit
		for n := 1; n <= len(words) && n <= 4; n++ {
			w := words[n-1]
			trimmed := strings.TrimRight(w, ",.;:)")
			if !nameWord(trimmed) {
				break
			}
			end += strings.Index(c.Text[end:], trimmed) + len(trimmed)
			phrase := c.Text[m.End+skip:end] + " of " + m.Text
			synthetic = gc.g.Scan(phrase, synthetic[:0])
			for _, h := range synthetic {
				if h.Start == 0 && h.End == len(phrase) {
					hits = append(hits, gazetteer.Hit{Start: m.Start, End: end, Place: h.Place, Exact: h.Exact, Capitalized: true})
				}
			}
			if trimmed != w {
				break // punctuation ends the phrase
			}
		}
	}
	return hits
}

// candidates scores every reading of every name outside the credit.
func (gc *Geocoder) candidates(c caption.Caption, hits []gazetteer.Hit, out []candidate) []candidate {
	for i, h := range hits {
		if !h.Capitalized || h.Start < c.CreditEnd && h.End > c.CreditStart {
			continue
		}
		if covered(hits, i) {
			continue
		}
		mi := mentionAt(c.Mentions, h)
		if mi < 0 {
			continue
		}
		m := &c.Mentions[mi]
		s := roleWeight(m) * kindPrior[h.Place.Kind] * designatorFit(m.Designator, h.Place.Kind)
		ew := entityWeight(c, m, h)
		s *= ew
		if m.Sentence > 0 {
			s *= 0.3
		}
		if m.Subordinate && mainWhereBefore(c, mi) {
			s *= 0.6 // "in Idlib after an attack in Khan Sheikhoun"
		}
		if !h.Exact {
			s *= 0.85
		}
		if !h.Place.Located {
			s *= 0.95
		}
		s += math.Log10(float64(h.Place.Population)+10) * 0.002 // same-name towns: the larger
		out = append(out, candidate{hit: h, mention: mi, score: s, base: s, whole: ew == 1})
	}
	return out
}

// mainWhereBefore reports whether, before mention i in its sentence, the
// caption names where the photo was outside any "after" clause.
func mainWhereBefore(c caption.Caption, i int) bool {
	for _, m := range c.Mentions[:i] {
		if m.Sentence == c.Mentions[i].Sentence && !m.Subordinate && m.Role == caption.Where && m.Cue != "dateline" && m.Entity == caption.MaybePlace {
			return true
		}
	}
	return false
}

// covered reports whether hit i lies inside a longer hit of another place
// ("Aleppo" inside "Old City of Aleppo").
func covered(hits []gazetteer.Hit, i int) bool {
	h := hits[i]
	for j, o := range hits {
		if j != i && o.Start <= h.Start && o.End >= h.End && o.End-o.Start > h.End-h.Start {
			return true
		}
	}
	return false
}

// mentionAt returns the index of the mention a hit overlaps, or -1.
func mentionAt(ms []caption.Mention, h gazetteer.Hit) int {
	for i := range ms {
		if ms[i].Start < h.End && h.Start < ms[i].End {
			return i
		}
	}
	return -1
}

// roleWeight weighs a mention by its role: "in X" and "at X" say the
// photo was in X; "near X", "outside X" name X as a reference point.
func roleWeight(m *caption.Mention) float64 {
	switch m.Role {
	case caption.Where:
		switch m.Cue {
		case "near", "outside", "around", "nearby", "beside", "rises from":
			return 0.7
		case "outskirts":
			return 0.6
		case "seen from":
			return 1.3
		}
		return 1
	case caption.Context:
		return 0.5
	case caption.Target:
		return 0.12
	}
	return 0.08
}

// kindPrior prefers, among same-name places, the settlement to the
// administrative area named after it.
var kindPrior = map[gazetteer.Kind]float64{
	gazetteer.City: 1, gazetteer.Town: 1, gazetteer.Village: 1, gazetteer.Neighbourhood: 0.95,
	gazetteer.Camp: 0.95, gazetteer.Landmark: 0.95, gazetteer.Crossing: 0.95, gazetteer.Region: 0.8,
	gazetteer.Governorate: 0.75, gazetteer.District: 0.5, gazetteer.Subdistrict: 0.45,
}

// designatorFit weighs how well the noun a caption uses for a place ("the
// town of", "province") fits a kind of place.
func designatorFit(d string, k gazetteer.Kind) float64 {
	switch d {
	case "city", "town", "village", "capital":
		switch {
		case k.Populated():
			return 1.2
		case k.Admin():
			return 0.4
		case k == gazetteer.Neighbourhood:
			return 0.8
		}
		return 0.7
	case "neighbourhood", "district":
		switch {
		case k == gazetteer.Neighbourhood:
			return 1.3
		case k == gazetteer.District && d == "district":
			return 1.1
		case k == gazetteer.Governorate:
			return 0.3
		case k == gazetteer.Subdistrict:
			return 0.6
		}
		return 1
	case "province", "governorate":
		switch {
		case k == gazetteer.Governorate:
			return 1.4
		case k == gazetteer.District:
			return 1
		}
		return 0.9
	case "countryside":
		switch {
		case k == gazetteer.Governorate:
			return 1.4
		case k == gazetteer.Region:
			return 1.2
		}
		return 0.6
	case "suburbs":
		if k.Populated() {
			return 0.7
		}
	case "camp", "crossing":
		if k == gazetteer.Camp && d == "camp" || k == gazetteer.Crossing && d == "crossing" {
			return 1.4
		}
		return 0.8
	case "area", "region":
		if k == gazetteer.Region {
			return 1.2
		}
	case "subdistrict":
		if k == gazetteer.Subdistrict {
			return 2.5
		}
	}
	return 1
}

// Words that may follow a place's name in a longer name that is still in
// that place: Umayyad Square, Aleppo University, Idlib Province.
var facilityWords = map[string]bool{"square": true, "street": true, "road": true, "highway": true, "mosque": true,
	"hospital": true, "university": true, "airport": true, "camp": true, "market": true, "souk": true, "souq": true,
	"bridge": true, "school": true, "park": true, "citadel": true, "gate": true, "stadium": true, "dam": true,
	"prison": true, "hotel": true, "church": true, "cathedral": true, "hill": true, "mount": true, "mountain": true,
	"mountains": true, "valley": true, "plain": true, "river": true, "lake": true, "countryside": true,
	"province": true, "governorate": true, "city": true, "town": true, "village": true, "district": true,
	"airbase": true, "base": true, "crossing": true, "border": true, "gate's": true, "old": true, "new": true,
	"central": true, "north": true, "south": true, "east": true, "west": true, "northern": true, "southern": true,
	"eastern": true, "western": true, "greater": true, "al": true, "el": true, "of": true, "the": true,
	"refugee": true, "refugees": true, "displaced": true, "palestinian": true, "syrian": true, "iraqi": true,
	"kurdish": true, "military": true, "air": true, "international": true}

// entityWeight lowers a name that is part of a person's, an organisation's
// or an event's name, or of a longer name the gazetteer does not know.
func entityWeight(c caption.Caption, m *caption.Mention, h gazetteer.Hit) float64 {
	whole := h.Start <= m.Start && h.End >= m.End
	switch m.Entity {
	case caption.Quoted:
		return 0.05
	case caption.Person, caption.Organisation, caption.Event:
		if whole {
			return 0.3
		}
		return 0.05
	}
	if whole {
		return 1
	}
	// The words of the mention outside the hit: "Bab al-Hadid" is not Al
	// Bab, but "Umayyad Square" is still in its square.
	for _, word := range strings.FieldsFunc(c.Text[m.Start:m.End], func(r rune) bool { return r == ' ' || r == '-' }) {
		off := strings.Index(c.Text[m.Start:m.End], word) + m.Start
		if (off < h.Start || off >= h.End) && !facilityWords[strings.ToLower(strings.Trim(word, "'’"))] {
			return 0.35
		}
	}
	return 1
}

// contains reports whether place q holds place p: by the gazetteer's links,
// or by distance for a city (its suburbs), a region or an area.
func (gc *Geocoder) contains(q, p *gazetteer.Place) bool {
	if q == p || q.ID == p.ID {
		return false
	}
	if gc.g.Contains(q, p) {
		return true
	}
	if !q.Located || !p.Located || q.Country != p.Country {
		return false
	}
	var radius float64
	switch q.Kind {
	case gazetteer.City:
		radius = 20000
	case gazetteer.Town:
		radius = 6000
	case gazetteer.Region, gazetteer.District:
		radius = 30000
	case gazetteer.Subdistrict:
		radius = 15000
	default:
		return false
	}
	// Cities are large and regions vague: only the gazetteer's links put a
	// city inside anything; nor is an area inside a point by distance.
	if p.Kind == gazetteer.City || p.Kind.Admin() || p.Kind == gazetteer.Region || specificity(p.Kind) > specificity(q.Kind) {
		return false
	}
	return within(q.Point, p.Point, radius)
}

// choose picks the best candidate, prefers a more specific place held by
// it, and falls back to a holding place when the caption's most specific
// place is unknown.
func (gc *Geocoder) choose(c caption.Caption, cands []candidate, known []bool) Result {
	// Context: a place held by another place the caption names is more
	// likely the one meant (Midan in Damascus, not Midan in Aleppo).
	for i := range cands {
		p := &cands[i]
		if p.hit.Place.Kind.Admin() && p.hit.Place.Kind != gazetteer.Governorate {
			continue
		}
		for j := range cands {
			q := &cands[j]
			if q.mention == p.mention || q.base < 0.1 {
				continue
			}
			if gc.contains(q.hit.Place, p.hit.Place) {
				p.score *= 1.25
				break
			}
		}
	}
	slices.SortStableFunc(cands, func(a, b candidate) int { return cmp.Compare(b.score, a.score) })
	if len(cands) == 0 || cands[0].score < 0.04 {
		return Result{Precision: None, Confidence: 0, Alternatives: alternatives(c, cands, 0, -1, 1)}
	}
	best := 0
	// A place held by the best one, named where the photo was, is the more
	// specific answer: "Bustan Pasha neighborhood of Aleppo".
	for again := true; again; {
		again = false
		for i := range cands {
			if i != best && cands[i].mention != cands[best].mention && cands[i].base >= 0.3 &&
				cands[i].score >= 0.35*cands[best].score && c.Mentions[cands[i].mention].Sentence == 0 &&
				gc.contains(cands[best].hit.Place, cands[i].hit.Place) {
				best, again = i, true
				break
			}
		}
	}
	b := cands[best]
	m := c.Mentions[b.mention]
	res := Result{Place: b.hit.Place, Precision: Exact, Mention: c.Text[b.hit.Start:b.hit.End]}
	conf := map[caption.Role]float64{caption.Where: 0.95, caption.Context: 0.75, caption.Target: 0.35, caption.Origin: 0.3}[m.Role]
	if m.Sentence > 0 {
		conf *= 0.7
	}
	if !b.hit.Exact {
		conf *= 0.9
	}
	if b.hit.Place.Kind.Admin() || b.hit.Place.Kind == gazetteer.Region {
		conf *= 0.85
	}
	// A rival: the best reading of another name that neither holds the
	// chosen place nor is held by it. Readings of a name that holds it
	// (Damascus the city, for Jobar) are no rivals in any of their kinds.
	holders := map[int]bool{b.mention: true}
	for i := range cands {
		if gc.contains(cands[i].hit.Place, b.hit.Place) {
			holders[cands[i].mention] = true
		}
	}
	for i := range cands {
		o := cands[i]
		if i == best || holders[o.mention] || gc.contains(b.hit.Place, o.hit.Place) || near(o.hit.Place, b.hit.Place) {
			continue
		}
		conf *= 1 - 0.5*math.Min(1, o.score/b.score)
		break
	}
	// A place with no point of its own is shown at its parent.
	if !b.hit.Place.Located {
		if parent := gc.located(b.hit.Place); parent != nil {
			res.Place, res.Precision = parent, Fallback
			res.Note = b.hit.Place.Name + " has no point in the gazetteer; placed at " + parent.Name + ", which holds it"
			conf *= 0.7
		} else {
			res.Place, res.Precision = nil, None
			res.Note = b.hit.Place.Name + " has no point in the gazetteer"
			conf = 0
		}
	}
	// A more specific place the gazetteer lacks: "the district of Dwelaa
	// in Damascus" is placed at Damascus, as a fallback.
	if res.Precision == Exact {
		if u, ok := unknownBefore(c, known, b.mention); ok && !b.far {
			res.Precision = Fallback
			res.Note = u.Text + " is not in the gazetteer; placed at " + res.Place.Name + ", which the caption says holds it"
			// "Khan Tuman, southwest of Aleppo" is not in Aleppo but in
			// its governorate.
			if d := c.Mentions[b.mention].Designator; isDirection(d) {
				if gov := gc.g.GovernorateOf(res.Place); gov != nil {
					res.Place = gov
					res.Note = u.Text + " is not in the gazetteer; the caption places it " + d + " of " +
						b.hit.Place.Name + ", so it is placed at the governorate, " + gov.Name
				}
			}
			res.Mention = u.Text
			conf *= 0.6
		} else if u, ok := unknownWhere(c, known, b.mention); ok || c.Mentions[b.mention].Cue != "seen from" && unknownSeenFrom(c, known, &u) {
			// The caption says where the photo was, but not in a way that
			// ties it to a known place.
			res = Result{Precision: None, Mention: u.Text, Note: u.Text + " is not in the gazetteer, and the caption names no place that holds it"}
			conf = 0
		}
	}
	res.Confidence = round2(math.Max(0, math.Min(0.99, conf)))
	if res.Precision == None {
		res.Alternatives = alternatives(c, cands, 0, -1, 1)
		return res
	}
	res.Alternatives = alternatives(c, cands, res.Confidence, best, b.score)
	return res
}

// near reports whether two places are close enough (25 km) that naming
// both is context, not a choice between them.
func near(p, q *gazetteer.Place) bool {
	return p.Located && q.Located && within(p.Point, q.Point, 25000)
}

// specificity ranks kinds, 0 for the most specific (landmark).
func specificity(k gazetteer.Kind) int { return slices.Index(gazetteer.Kinds, k) }

// within reports whether points a and b ([lon, lat]) are at most metres
// apart. It uses the equirectangular approximation, which for the tens of
// kilometres compared here is within a fraction of a percent of
// geo.Distance and much cheaper, as it runs for every pair of readings.
func within(a, b orb.Point, metres float64) bool {
	const rad = math.Pi / 180
	x := (b[0] - a[0]) * rad * math.Cos((a[1]+b[1])/2*rad)
	y := (b[1] - a[1]) * rad
	r := metres / orb.EarthRadius
	return x*x+y*y <= r*r
}

// isDirection reports whether a designator places a name beside another
// rather than in it: "north of Aleppo".
func isDirection(d string) bool {
	return d == "north" || d == "south" || d == "east" || d == "west"
}

// located returns p's nearest ancestor that has a point, or nil.
func (gc *Geocoder) located(p *gazetteer.Place) *gazetteer.Place {
	for depth := 0; p != nil && depth < 8; depth++ {
		if p.Located {
			return p
		}
		if p.Parent == "" {
			return nil
		}
		p = gc.g.ByID(p.Parent)
	}
	return nil
}

// alternatives lists up to three other places among cands, best first,
// their scores scaled so that the chosen one's would be conf.
func alternatives(c caption.Caption, cands []candidate, conf float64, best int, bestScore float64) []Alternative {
	var out []Alternative
	seen := map[string]bool{}
	if best >= 0 {
		seen[cands[best].hit.Place.ID] = true
	}
	for i, o := range cands {
		if i == best || seen[o.hit.Place.ID] || len(out) == 3 {
			continue
		}
		seen[o.hit.Place.ID] = true
		score := o.score / bestScore
		if best >= 0 {
			score *= conf
		}
		out = append(out, Alternative{Place: o.hit.Place, Score: round2(math.Min(0.99, score)), Mention: c.Text[o.hit.Start:o.hit.End]})
	}
	return out
}

// unknownBefore finds a name the gazetteer lacks that the caption places
// inside the chosen mention: "district of Dwelaa in Damascus", "Bishqatin
// near Aleppo", "Aleppo's Bab al-Nasr district".
func unknownBefore(c caption.Caption, known []bool, chosen int) (caption.Mention, bool) {
	ch := c.Mentions[chosen]
	for i := chosen - 1; i >= 0 && i >= chosen-2; i-- {
		u := c.Mentions[i]
		if u.Sentence != ch.Sentence || !placeLike(c, i) || known[i] {
			continue
		}
		between := strings.ToLower(c.Text[u.End:ch.Start])
		if len(between) < 60 && (ch.Role == caption.Where || strings.Contains(between, ",") || strings.Contains(between, " of ")) {
			return u, true
		}
	}
	// Possessive: "Aleppo's Bab al-Nasr district".
	if ch.Possessive && chosen+1 < len(c.Mentions) {
		u := c.Mentions[chosen+1]
		if placeLike(c, chosen+1) && !known[chosen+1] && u.Designator != "" {
			return u, true
		}
	}
	return caption.Mention{}, false
}

// unknownWhere finds, before the chosen mention, a name the gazetteer
// lacks that the first sentence says the photo was taken in, when the
// chosen place is only context; such a caption is not placed.
func unknownWhere(c caption.Caption, known []bool, chosen int) (caption.Mention, bool) {
	if c.Mentions[chosen].Role == caption.Where && c.Mentions[chosen].Sentence == 0 {
		return caption.Mention{}, false
	}
	for i := range c.Mentions {
		if u := c.Mentions[i]; u.Sentence == 0 && u.Role == caption.Where && placeLike(c, i) && !known[i] {
			return u, true
		}
	}
	return caption.Mention{}, false
}

// unknownSeenFrom finds a name the gazetteer lacks that the caption says
// the photo was taken from ("as seen from Mursitpinar, Turkey").
func unknownSeenFrom(c caption.Caption, known []bool, u *caption.Mention) bool {
	for i, m := range c.Mentions {
		if m.Cue == "seen from" && !known[i] && m.Entity == caption.MaybePlace {
			*u = m
			return true
		}
	}
	return false
}

// placeLike reports whether mention i reads as a place name: where the
// photo was, not a person, organisation, event or country, and not an
// adjective before a noun ("a Syrian army soldier").
func placeLike(c caption.Caption, i int) bool {
	m := c.Mentions[i]
	if m.Entity != caption.MaybePlace || m.Role == caption.Origin || m.Role == caption.Target || m.Role != caption.Where && m.Designator == "" {
		return false
	}
	rest := strings.TrimLeft(c.Text[m.End:], " ")
	next := rest
	if j := strings.IndexAny(rest, " ,.;:()"); j >= 0 {
		next = rest[:j]
	}
	if next != "" && next[0] >= 'a' && next[0] <= 'z' && !followers[next] {
		return false
	}
	return true
}

// Words that may follow a place name without making it an adjective.
var followers = map[string]bool{"in": true, "on": true, "at": true, "near": true, "of": true, "as": true,
	"after": true, "during": true, "while": true, "and": true, "where": true, "with": true, "is": true,
	"was": true, "were": true, "are": true, "has": true, "had": true, "have": true, "before": true,
	"since": true, "when": true, "which": true, "that": true, "to": true, "from": true, "under": true,
	"outside": true, "inside": true, "northeast": true, "northwest": true, "southeast": true,
	"southwest": true, "north": true, "south": true, "east": true, "west": true, "by": true, "for": true,
	"district": true, "neighbourhood": true, "neighborhood": true, "town": true, "village": true,
	"city": true, "area": true, "camp": true, "province": true, "governorate": true, "countryside": true,
	"suburb": true, "suburbs": true, "quarter": true, "region": true, "close": true, "about": true,
	// "the Oncupinar border crossing", "the Dar al-Shifa hospital"
	"border": true, "crossing": true, "checkpoint": true, "airport": true, "airbase": true, "hospital": true,
	"square": true, "street": true, "road": true, "highway": true, "bridge": true, "mosque": true, "market": true,
	"school": true, "refugee": true, "displaced": true, "dam": true, "prison": true, "citadel": true,
	"river": true, "valley": true, "mountains": true, "plain": true, "outskirts": true, "gate": true,
	"base": true, "military": true, "front": true, "frontline": true, "bakery": true, "church": true}

func round2(x float64) float64 { return math.Round(x*100) / 100 }

// Point returns where a result puts the photo, and false when it is not
// placed.
func (r Result) Point() (orb.Point, bool) {
	if r.Place == nil || !r.Place.Located {
		return orb.Point{}, false
	}
	return r.Place.Point, true
}

// Package geocode decides where a captioned photo was taken: it weighs the
// place names a caption reader found against a gazetteer and chooses one
// place, with a confidence, the text it matched and the alternatives.
package geocode

import (
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/paulmach/orb"

	"github.com/syriamap/syriamap/internal/geoparse/caption"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
)

// Gazetteer is what the geocoder needs of a gazetteer.
type Gazetteer interface {
	// ScanNames appends the place names written as names (capitalised)
	// found in text to dst.
	ScanNames(text string, dst []gazetteer.Hit) []gazetteer.Hit
	// ByID returns a place by id, or nil.
	ByID(id string) *gazetteer.Place
	// Contains reports whether q holds p by the gazetteer's own links.
	Contains(q, p *gazetteer.Place) bool
	// GovernorateOf returns the governorate p lies in, or nil.
	GovernorateOf(p *gazetteer.Place) *gazetteer.Place
	// OtherSide returns a border crossing's gate in the other country,
	// or nil.
	OtherSide(p *gazetteer.Place) *gazetteer.Place
	// QuarterByPart returns the one quarter of city a part of whose name
	// name is, or nil.
	QuarterByPart(city *gazetteer.Place, name string) *gazetteer.Place
	// NearSpellings returns the places of a governorate one of whose
	// Arabic names is name with one letter changed, or nil.
	NearSpellings(name, gov string) []*gazetteer.Place
}

// originCeiling bounds the confidence of an answer read from where people
// came from: below 0.8, which reviewers and readers take as sure.
const originCeiling = 0.75

// personCeiling bounds the confidence of an answer read from a name the
// caption gives a person.
const personCeiling = 0.3

// residentsCeiling bounds the confidence of an answer read from the
// adjective of a city's people ("حلبيون", Aleppans).
const residentsCeiling = 0.7

// fragmentOf reports whether a place of kind k read from a word inside a
// name the caption calls a designator (a camp, a quarter) is a fragment of
// another place's name: a village inside a camp's name is; a crossing
// inside "the Cilvegozu gate" is not.
func fragmentOf(designator string, k gazetteer.Kind) bool {
	switch designator {
	case "camp":
		return k != gazetteer.Camp
	case "neighbourhood", "district":
		return k != gazetteer.Neighbourhood
	}
	return false
}

// fragmentCeiling bounds the confidence of an answer read from a word
// inside a longer name: under the line where a placement is called low
// (web.PlacementCode's one half).
const fragmentCeiling = 0.45

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
	// Confidence is from 0 to 1: the probability that the photo was
	// taken at Place, as precisely as the caption says (a fallback to a
	// holder is less sure than the place named). It is calibrated on
	// labelled captions: answers given 0.9 are right about 9 times in 10.
	Confidence float64
	// Mention is the caption text that named the place (for a fallback, the
	// more specific name that could not be placed).
	Mention string
	// Note says, for a fallback, why the photo is placed where it is.
	Note         string
	Alternatives []Alternative
	// Unknown are the names the caption reads as places that the
	// gazetteer knows no reading of ("the village of Ghazila"): where it
	// must still grow.
	Unknown []string
}

// Alternative is a place the geocoder weighed and did not choose.
type Alternative struct {
	Place   *gazetteer.Place
	Score   float64 // on the scale of Result.Confidence
	Mention string
}

// Geocoder chooses photo places. It is safe for concurrent use.
type Geocoder struct {
	g     Gazetteer
	model Model // the confidence model: the shipped one, or an archive's refit
	pool  sync.Pool
}

// New returns a Geocoder over g, with the shipped confidence model.
func New(g Gazetteer) *Geocoder { return NewWithModel(g, model) }

// NewWithModel returns a Geocoder over g whose confidence is m's (an
// archive's Refit).
func NewWithModel(g Gazetteer, m Model) *Geocoder {
	return &Geocoder{g: g, model: m, pool: sync.Pool{New: func() any { return &work{} }}}
}

// Model is the geocoder's confidence model.
func (gc *Geocoder) Model() Model { return gc.model }

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
	// spelled is true when one of the place's names is written as the
	// caption writes it and other readings of the words only fold alike:
	// it wins a tie.
	spelled bool
	// contradicted is true when the caption's stated direction or distance
	// from another place rules this reading out ("Sajur, north of Manbij"
	// read as a Sajur south of it).
	contradicted bool
}

// Geocode chooses where the photo of caption c was taken.
func (gc *Geocoder) Geocode(c caption.Caption) Result {
	return gc.geocode(c, nil)
}

// geocode is Geocode; when ex is not nil it also records how the answer
// was reached.
func (gc *Geocoder) geocode(c caption.Caption, ex *Explanation) Result {
	w := gc.pool.Get().(*work)
	defer gc.pool.Put(w)
	w.hits = gc.scan(c, w.hits[:0])
	w.hits = gc.residentHits(c, w.hits)
	if c.Arabic {
		w.hits = gc.variantHits(c, w.hits)
		c.Mentions = namedOnly(c.Text, c.Mentions, w.hits)
	}
	w.hits = gc.possessiveHits(c, w.hits)
	w.hits = gc.oldQuarterHits(c, w.hits)
	w.hits = gc.partQuarterHits(c, w.hits)
	w.cands = prune(gc.candidates(c, w.hits, w.cands[:0]))
	gc.markFar(c, w.cands)
	w.known = knownMentions(c, w.cands, w.known[:0])
	r, best, ruleConf := gc.choose(c, w.cands, w.known)
	unknownWhere := addUnknown(&r, c, w.cands, w.known)
	if best >= 0 && r.Place != nil {
		x, shape := gc.features(c, w.cands, best, r, ruleConf, len(r.Unknown), unknownWhere)
		ceiling := gc.ceiling(c, w.cands, best, &r)
		conf := round2(math.Max(0.01, math.Min(0.99, math.Min(gc.model.Probability(x), ceiling))))
		// The alternatives' scores are on the confidence's scale.
		for i := range r.Alternatives {
			if r.Confidence > 0 {
				r.Alternatives[i].Score = round2(math.Min(0.99, r.Alternatives[i].Score/r.Confidence*conf))
			}
		}
		r.Confidence = conf
		if ex != nil {
			ex.Features, ex.Shape, ex.Ceiling, ex.Model = x, shape, ceiling, gc.model
		}
	}
	if ex != nil {
		ex.explain(c, w.cands, best)
	}
	return r
}

// knownMentions appends to known, for each of the caption's mentions,
// whether a whole reading near the rest is of it.
func knownMentions(c caption.Caption, cands []candidate, known []bool) []bool {
	for i := range c.Mentions {
		m := &c.Mentions[i]
		k := false
		for _, cd := range cands {
			// "the Darat Izza neighbourhood of Aleppo": a quarter the
			// gazetteer lacks, though a subdistrict bears its name.
			quarterAsArea := m.Designator == "neighbourhood" && cd.hit.Place.Kind.Admin()
			k = k || cd.whole && !cd.far && !quarterAsArea && cd.hit.Start < m.End && m.Start < cd.hit.End
		}
		known = append(known, k)
	}
	return known
}

// addUnknown lists in r the place-like mentions nothing was read from,
// and returns how many of them say where the photo was.
func addUnknown(r *Result, c caption.Caption, cands []candidate, known []bool) (where int) {
	for i := range c.Mentions {
		if !known[i] && placeLike(c, i) && !anyReading(cands, i) && c.Mentions[i].Designator != "landmark" {
			r.Unknown = append(r.Unknown, c.Mentions[i].Text)
			if c.Mentions[i].Role == caption.Where && c.Mentions[i].Cue != "dateline" {
				where++
			}
		}
	}
	return where
}

// ceiling is the most the confidence in r, read from cands[best], may be
// whatever the model says, for what the caption says of the place; the
// readings it caps say so in r's note, and a reading of a word inside a
// longer name is made a fallback for that name (fragmentOf).
func (gc *Geocoder) ceiling(c caption.Caption, cands []candidate, best int, r *Result) float64 {
	// k places of the same name, all but equally likely, cannot be told
	// apart by any weight: the answer is right one time in k+1 at best.
	ceiling := 1 / (1 + float64(gc.sameNameRivals(cands, best, 0.75)))
	read := c.Mentions[cands[best].mention]
	switch read.Entity {
	case caption.Person:
		// A name the caption gives a person ("Saad, a teen from Raqqa,")
		// read as a place is a guess at best.
		ceiling = math.Min(ceiling, personCeiling)
	case caption.Residents:
		// "A Homs family" may live anywhere: where its people are from
		// is a hint of the place, never a sure answer.
		ceiling = math.Min(ceiling, residentsCeiling)
	}
	// A place people came from ("who fled the centre of Raqqa", "was
	// evacuated from the besieged town of") is where the photo was only
	// when the caption says nothing else: never a sure answer.
	if read.Role == caption.Origin {
		ceiling = math.Min(ceiling, originCeiling)
	}
	// A place read from one word inside the longer name of another kind
	// of place ("Ward" in "Qutaybat al-Ward camp", a camp the gazetteer
	// lacks) is a guess: under the low line, so that the review queue
	// shows it early, and a fallback for the longer name, which the
	// gazetteer lacks, so that no badge calls it exact.
	if !cands[best].whole && r.Precision == Exact && fragmentOf(read.Designator, r.Place.Kind) {
		ceiling = math.Min(ceiling, fragmentCeiling)
		r.Precision, r.Mention = Fallback, read.Text
		r.Note = strings.TrimSpace(fmt.Sprintf("%s is read from a word inside the longer name %q, which the gazetteer lacks: a guess, not a place that holds it. %s", r.Place.Name, read.Text, r.Note))
	}
	// A fallback is not where the photo was, only what holds it: never
	// a sure answer ("at the old souk in Homs" answered as Homs).
	if r.Precision == Fallback {
		ceiling = math.Min(ceiling, originCeiling)
	}
	// An Arabic name read with one letter changed (variantHits) is
	// likely, not sure: no shared caption has tested the rule.
	if c.Arabic && !cands[best].hit.Exact && r.Precision == Exact {
		ceiling = math.Min(ceiling, originCeiling)
		r.Note = strings.TrimSpace(fmt.Sprintf("%s is read from the spelling %q, one letter from its own. %s", r.Place.Name, read.Text, r.Note))
	}
	return ceiling
}

// namedOnly keeps, of an Arabic caption's mentions, those in which the
// gazetteer has a name, spelt as it spells it, narrowed to that name, and
// the countries: with no capitals to go by, the Arabic reader takes the
// words a cue governs ("في الشارع", in the street; "القنيطرة الحدودية",
// the border town of Quneitra), and words that name no place are no
// unknown place either.
func namedOnly(text string, ms []caption.Mention, hits []gazetteer.Hit) []caption.Mention {
	out := make([]caption.Mention, 0, len(ms))
	for _, m := range ms {
		if m.Entity == caption.Country || m.Entity == caption.Nationality {
			out = append(out, m)
			continue
		}
		start, end := -1, -1
		for _, h := range hits {
			// A loose reading counts when it is the whole name (a
			// variant spelling, see variantHits).
			if (h.Exact || h.Start == m.Start && h.End == m.End) && h.Start >= m.Start && h.End <= m.End {
				if start < 0 || h.Start < start {
					start = h.Start
				}
				end = max(end, h.End)
			}
		}
		switch {
		case start >= 0:
			m.Start, m.End, m.Text = start, end, text[start:end]
			out = append(out, m)
		case m.Designator == "neighbourhood" || m.Designator == "camp" || m.Designator == "village" || m.Designator == "landmark":
			// "حي «باب النيرب»": a place the caption says is one, which
			// the gazetteer lacks — the answer falls back to what holds it.
			out = append(out, m)
		}
	}
	return out
}

// minScore is the least score a reading needs to be chosen (below it a
// photo is unplaced); a reading below it is also too weak to be context
// for others, and is dropped before the pairwise rules.
const minScore = 0.04

// prune drops the readings that can play no part: a same-name village
// across the country, read from an uncued word, is one of dozens in a
// large gazetteer, and the context rules compare every pair.
func prune(cands []candidate) []candidate {
	out := cands[:0]
	for _, c := range cands {
		if c.score >= minScore {
			out = append(out, c)
		}
	}
	return out
}

// anyReading reports whether mention i has a reading among cands, far or
// not.
func anyReading(cands []candidate, i int) bool {
	for _, cd := range cands {
		if cd.mention == i {
			return true
		}
	}
	return false
}

// Point returns where a result puts the photo, and false when it is not
// placed.
func (r Result) Point() (orb.Point, bool) {
	if r.Place == nil || !r.Place.Located {
		return orb.Point{}, false
	}
	return r.Place.Point, true
}

package geocode

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/syriamap/syriamap/internal/geoparse/caption"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/geoparse/lexicon"
)

// The confidence of an answer is a probability that it is right, from a
// logistic regression over what is known of the answer (its features,
// below). The weights are fitted on labelled captions by
// cmd/syriamap-train (make train) and committed in model.json; the rule
// scores still choose among the readings, and their confidence is one of
// the features, so that the model calibrates the rules and adds what they
// do not weigh (several same-name places, names the gazetteer lacks, a
// country stated or not).

// Features are the inputs of the confidence model, in a fixed order.
type Features [NumFeatures]float64

// The features of an answer.
const (
	fBias = iota
	fRuleConfidence
	fFallback
	fContextRole
	fTargetRole
	fLaterSentence
	fLooseSpelling
	fAbroad
	fCountryStated
	fOtherCountry
	fQuarterOrCamp
	fVillage
	fArea
	fSameName
	fUnknownNames
	fPlacesNamed
	fDateline
	fSeenFrom
	fRivalMargin
	fProminence
	fUnknownWhere
	fAbroadUnstated
	fArabic
	fUnseenShape
	fShapeFrequency
	fKindFrequency
	fOtherKinds
	fShapeRecord
	fHoldsNamed
	fLacksSmaller
	NumFeatures
)

// FeatureNames name the features, in order; model.json lists them too.
var FeatureNames = [NumFeatures]string{
	fBias:           "bias",
	fRuleConfidence: "log rule confidence",
	fFallback:       "fallback to a holder",
	fContextRole:    "named as context",
	fTargetRole:     "named as target or origin",
	fLaterSentence:  "after the first sentence",
	fLooseSpelling:  "loose spelling",
	fAbroad:         "abroad",
	fCountryStated:  "its country stated",
	fOtherCountry:   "another country stated",
	fQuarterOrCamp:  "quarter or camp",
	fVillage:        "village",
	fArea:           "region or admin area",
	fSameName:       "same-name readings",
	fUnknownNames:   "names the gazetteer lacks",
	fPlacesNamed:    "places named",
	fDateline:       "dateline",
	fSeenFrom:       "seen from",
	fRivalMargin:    "margin over a rival",
	fProminence:     "prominence",
	fUnknownWhere:   "an unknown name where the photo was",
	fAbroadUnstated: "abroad, its country unstated",
	fArabic:         "caption in Arabic",
	fUnseenShape:    "a shape unseen in the fit",
	fShapeFrequency: "log per mille of its shape",
	fKindFrequency:  "log per mille of its kind",
	fOtherKinds:     "names a kind of place it is not",
	fShapeRecord:    "its shape's record in the fit",
	// The caption names a smaller place the answer holds ("between
	// Jobar and Qabun … the capital Damascus" answered by the city).
	fHoldsNamed: "holds another place named",
	// The caption names a quarter, camp or village the gazetteer lacks
	// beside a coarser answer ("حي طارق الباب … في حلب" answered by Aleppo).
	fLacksSmaller: "a smaller place named it lacks",
}

// Model is a fitted logistic regression over Features.
type Model struct {
	Features []string  `json:"features"`
	Weights  []float64 `json:"weights"`
	// FittedOn says what the weights were fitted on, for the reader.
	FittedOn string  `json:"fitted_on"`
	L2       float64 `json:"l2"`
	// Prior and Cover make a refit on an archive's reviews speak only for
	// what its reviews can tell: reviews are the least confident answers
	// (the queue shows those first), which can show the model too sure of
	// a kind of answer, but never safely that it is too unsure (answers
	// picked for being unsure and found right regress to the mean). So a
	// refit only lowers a confidence, and only of answers as unsure as the
	// reviewed ones: those the prior (the shipped model) is surer of than
	// any reviewed one (Cover) keep the prior's. Empty for the shipped
	// model.
	Prior []float64 `json:"prior,omitempty"`
	Cover float64   `json:"cover,omitempty"`
	// Shapes counts the answers the weights were fitted on by shape, for
	// the features that say how new an answer's shape is (see Shape).
	Shapes ShapeCounts `json:"shapes"`
}

//go:embed model.json
var modelJSON []byte

// model is the committed model; ParseModel checks it matches Features.
var model = func() Model {
	m, err := ParseModel(modelJSON)
	if err != nil {
		panic("geocode: model.json: " + err.Error())
	}
	return m
}()

// ParseModel reads a model and checks that it is over this package's
// features, in their order.
func ParseModel(data []byte) (Model, error) {
	var m Model
	if err := json.Unmarshal(data, &m); err != nil {
		return Model{}, err
	}
	if len(m.Features) != NumFeatures || len(m.Weights) != NumFeatures || len(m.Prior) != 0 && len(m.Prior) != NumFeatures {
		return Model{}, fmt.Errorf("%d features, %d weights and %d prior weights, want %d (run make train)", len(m.Features), len(m.Weights), len(m.Prior), NumFeatures)
	}
	for i, name := range m.Features {
		if name != FeatureNames[i] {
			return Model{}, fmt.Errorf("feature %d is %q, want %q (run make train)", i, name, FeatureNames[i])
		}
	}
	return m, nil
}

// Logit is the model's log-odds that an answer with features x is right.
func (m Model) Logit(x Features) float64 {
	z := 0.0
	for i, w := range m.Weights {
		z += w * x[i]
	}
	return z
}

// Probability is the model's probability that an answer with features x
// is right. A refit's (Prior set) is the prior's beyond what the reviews
// covered, and never above the prior's within it.
func (m Model) Probability(x Features) float64 {
	p := 1 / (1 + math.Exp(-m.Logit(x)))
	if len(m.Prior) == 0 {
		return p
	}
	p0 := probability(m.Prior, x)
	if p0 > m.Cover {
		return p0
	}
	return math.Min(p, p0)
}

// features describes the answer res, read from cands[best] with the rule
// confidence ruleConf, and gives its shape.
func (gc *Geocoder) features(c caption.Caption, cands []candidate, best int, res Result, ruleConf float64, unknown, unknownWhere int) (Features, Shape) {
	var x Features
	b := cands[best]
	m := c.Mentions[b.mention]
	p := res.Place
	shape := ShapeOf(c.Text, p, m, b.hit.Exact, res.Precision)
	gc.model.Shapes.SetShape(&x, shape)
	x[fBias] = 1
	x[fRuleConfidence] = math.Log(math.Max(0.01, ruleConf))
	x[fFallback] = flag(res.Precision == Fallback)
	x[fContextRole] = flag(m.Role == caption.Context)
	x[fTargetRole] = flag(m.Role == caption.Target || m.Role == caption.Origin)
	x[fLaterSentence] = flag(m.Sentence > 0)
	x[fLooseSpelling] = flag(!b.hit.Exact)
	x[fAbroad] = flag(p.Country != "SY")
	stated, other := countriesNamed(c, p.Country)
	x[fCountryStated], x[fOtherCountry] = flag(stated), flag(other)
	x[fQuarterOrCamp] = flag(p.Kind == gazetteer.Neighbourhood || p.Kind == gazetteer.Camp)
	x[fVillage] = flag(p.Kind == gazetteer.Village)
	x[fArea] = flag(p.Kind.Admin() || p.Kind == gazetteer.Region)
	// Readings of the same name nearly as likely as the chosen one: three
	// villages called Judaydah are a guess among three.
	x[fSameName] = math.Log1p(float64(gc.sameNameRivals(cands, best, 0.5)))
	x[fUnknownNames] = math.Log1p(float64(unknown))
	mentions := 0
	for i := range c.Mentions {
		if anyReading(cands, i) {
			mentions++
		}
	}
	x[fPlacesNamed] = math.Log1p(float64(mentions))
	x[fDateline] = flag(m.Cue == "dateline")
	// +1: the answer is where the photo was taken from; -1: the caption
	// says it was taken from somewhere after the answer's name (what
	// the camera looks at is not where it stands).
	switch {
	case m.Cue == "seen from":
		x[fSeenFrom] = 1
	case strings.Contains(c.Text[m.End:], "seen from"):
		x[fSeenFrom] = -1
	}
	x[fRivalMargin] = 3
	for i, o := range cands {
		if i == best || o.mention == b.mention || gc.contains(o.hit.Place, b.hit.Place) || gc.contains(b.hit.Place, o.hit.Place) || near(o.hit.Place, b.hit.Place) {
			continue
		}
		x[fRivalMargin] = math.Min(3, math.Log(b.score/math.Max(o.score, 1e-9)))
		break
	}
	x[fProminence] = gazetteer.Prominence(p) / 10
	x[fUnknownWhere] = flag(unknownWhere > 0)
	x[fAbroadUnstated] = flag(p.Country != "SY" && !stated)
	// Read by cues without capitals, an Arabic caption's place is less
	// sure than an English one's with the same rule score.
	x[fArabic] = flag(c.Arabic)
	x[fHoldsNamed] = flag(gc.holdsNamed(cands, b, p))
	x[fLacksSmaller] = flag(res.Precision == Exact && lacksSmaller(c, cands, b.mention, p.Kind))
	return x, shape
}

// holdsNamed reports whether the answer p, read from b, holds a place
// another name of the caption may mean (not far from the others): the
// caption may be about the smaller one.
func (gc *Geocoder) holdsNamed(cands []candidate, b candidate, p *gazetteer.Place) bool {
	if p.Kind != gazetteer.City && p.Kind != gazetteer.Region && !p.Kind.Admin() {
		return false
	}
	for _, o := range cands {
		if o.mention != b.mention && !o.far && o.hit.Place.Kind != p.Kind && gc.contains(p, o.hit.Place) {
			return true
		}
	}
	return false
}

// countriesNamed reports whether the caption names country code (Turkey,
// Lebanon's) or gives a place its nationality (the Turkish town of
// Akcakale), and whether it names another country; a country that only
// backs something ("Turkey-backed") names none.
func countriesNamed(c caption.Caption, code string) (stated, other bool) {
	for _, m := range c.Mentions {
		if m.Entity != caption.Country && m.Entity != caption.Nationality || backs(c, m) {
			continue
		}
		var buf [32]byte
		lower := appendLower(buf[:0], m.Text)
		k, _ := lexicon.CountryCode(string(lower))
		if m.Entity == caption.Nationality {
			// An Arabic adjective of country names a place's country only
			// right after it, read as a Country mention: "الحدود السورية
			// التركية" is the border's.
			k = ""
			if !c.Arabic {
				k = lexicon.Nationalities[string(lower)]
			}
		}
		switch {
		case k == "":
		case k == code:
			stated = true
		default:
			other = true
		}
	}
	return stated, other
}

// statedOf reports whether the caption names the country code.
func statedOf(c caption.Caption, code string) bool {
	stated, _ := countriesNamed(c, code)
	return stated
}

func appendLower(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		b := s[i]
		if b >= 'A' && b <= 'Z' {
			b += 'a' - 'A'
		}
		dst = append(dst, b)
	}
	return dst
}

func flag(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// lacksSmaller reports whether the caption calls a name other than the
// chosen mention's a quarter, district, camp, village or landmark and the
// gazetteer has no reading of the whole name, while the answer, of kind
// k, is a town or coarser: the photo may be in the smaller place.
func lacksSmaller(c caption.Caption, cands []candidate, chosen int, k gazetteer.Kind) bool {
	if k != gazetteer.City && k != gazetteer.Town && k != gazetteer.Region && !k.Admin() {
		return false
	}
	for i, m := range c.Mentions {
		if i == chosen {
			continue
		}
		switch m.Designator {
		case "neighbourhood", "district", "camp", "village", "landmark":
		default:
			continue
		}
		whole := false
		for _, cd := range cands {
			whole = whole || cd.mention == i && cd.whole
		}
		if !whole {
			return true
		}
	}
	return false
}

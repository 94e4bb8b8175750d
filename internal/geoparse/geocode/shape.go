package geocode

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/syriamap/syriamap/internal/geoparse/caption"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
)

// The rules were written on the captions the model is fitted on, so the
// model trusts them as much as they deserved there; on a kind of caption
// they never met (a village named after "the village of", a crossing
// named by its town) the same rule scores are worth less. An answer's
// shape is what it looks like apart from its words — the kind of place
// answered, the cue and the designator of its name, whether the name was
// matched exactly, whether it is a fallback — and the model carries the
// count of each shape among the answers it was fitted on (ShapeCounts,
// in model.json), so that an answer of a shape it rarely or never saw is
// less sure than the same answer of a common one.

// Shape is an answer's shape, written kind|cue|designator|match: the
// kind of place answered ("town", "city abroad"), the cue and designator
// of the name it was read from ("" for none), and "exact", "loose" or
// "fallback" for how it matched.
type Shape string

// ShapeOf is the shape of an answer of place p, read from mention m,
// matched exactly or not, at precision prec, in caption text; a caption
// that names a kind of place the answer is not ("a refugee camp in
// Sofia" answered by a village) adds those kinds ("|camp").
func ShapeOf(text string, p *gazetteer.Place, m caption.Mention, exact bool, prec Precision) Shape {
	kind := string(p.Kind)
	if p.Country != "SY" {
		kind += " abroad"
	}
	match := "loose"
	switch {
	case prec == Fallback:
		match = "fallback"
	case exact:
		match = "exact"
	}
	return Shape(kind + "|" + m.Cue + "|" + m.Designator + "|" + match + "|" + otherKinds(text, p.Kind))
}

// kindWords are the words that name a kind of place, as captions write
// them (an English word also capitalised or plural, an Arabic one also
// with a prefix of arabicPrefix or plural: بمخيم, والمعبر, مخيمات).
var kindWords = [...]struct {
	word string
	kind gazetteer.Kind
}{
	{"village", gazetteer.Village}, {"Village", gazetteer.Village}, {"قرية", gazetteer.Village},
	{"camp", gazetteer.Camp}, {"Camp", gazetteer.Camp}, {"مخيم", gazetteer.Camp},
	{"crossing", gazetteer.Crossing}, {"Crossing", gazetteer.Crossing}, {"gate", gazetteer.Crossing},
	{"Gate", gazetteer.Crossing}, {"معبر", gazetteer.Crossing},
	{"neighbourhood", gazetteer.Neighbourhood}, {"neighborhood", gazetteer.Neighbourhood},
	{"Neighbourhood", gazetteer.Neighbourhood}, {"Neighborhood", gazetteer.Neighbourhood},
	{"quarter", gazetteer.Neighbourhood}, {"Quarter", gazetteer.Neighbourhood}, {"district", gazetteer.Neighbourhood},
	{"District", gazetteer.Neighbourhood}, {"souk", gazetteer.Neighbourhood}, {"Souk", gazetteer.Neighbourhood},
	{"حي", gazetteer.Neighbourhood},
}

// arabicPrefix reports whether p may begin an Arabic word of kindWords.
func arabicPrefix(p string) bool {
	switch p {
	case "", "ب", "و", "ل", "ف", "ال", "بال", "وال", "لل", "فال":
		return true
	}
	return false
}

// otherKinds lists, in a fixed order, the kinds of place the caption
// text names by a word of kindWords that the answer, of kind k, is not:
// "" for none, "camp", "camp+village" …
func otherKinds(text string, k gazetteer.Kind) string {
	if k == gazetteer.Landmark {
		k = gazetteer.Neighbourhood
	}
	var named [4]bool
	order := [4]gazetteer.Kind{gazetteer.Camp, gazetteer.Crossing, gazetteer.Neighbourhood, gazetteer.Village}
	for _, kw := range kindWords {
		if kw.kind == k {
			continue
		}
		for i := 0; ; {
			j := strings.Index(text[i:], kw.word)
			if j < 0 {
				break
			}
			start, end := i+j, i+j+len(kw.word)
			if isWord(text, start, end) {
				for n, o := range order {
					named[n] = named[n] || o == kw.kind
				}
				break
			}
			i = end
		}
	}
	out := ""
	for i, o := range order {
		if named[i] {
			if out != "" {
				out += "+"
			}
			out += string(o)
		}
	}
	return out
}

// isWord reports whether text[start:end], a word of kindWords, is a
// whole word of text: nothing but a plural after it, and nothing before
// it but an Arabic word's prefix.
func isWord(text string, start, end int) bool {
	arabic := text[start] >= utf8.RuneSelf
	rest := text[end:]
	if arabic {
		rest = strings.TrimPrefix(rest, "ات")
	} else {
		rest = strings.TrimPrefix(rest, "s")
	}
	if r, _ := utf8.DecodeRuneInString(rest); rest != "" && unicode.IsLetter(r) {
		return false
	}
	from := start
	for from > 0 {
		r, size := utf8.DecodeLastRuneInString(text[:from])
		if !unicode.IsLetter(r) {
			break
		}
		from -= size
	}
	return from == start || arabic && arabicPrefix(text[from:start])
}

// kindOf is the shape's kind of place: its coarser shape.
func (s Shape) kindOf() Shape {
	k, _, _ := strings.Cut(string(s), "|")
	return Shape(k)
}

// ShapeCounts are the weights of the answers a model was fitted on, by
// shape and by kind of place (a shape's kindOf), and their total.
type ShapeCounts struct {
	Total  float64           `json:"total"`
	Counts map[Shape]float64 `json:"counts"`
	// Right are the weights of the right answers, by shape and kind, and
	// their total.
	RightTotal float64           `json:"right_total"`
	Right      map[Shape]float64 `json:"right"`
}

// Add counts an answer of shape s with weight w, right or not.
func (t *ShapeCounts) Add(s Shape, w float64, right bool) {
	if t.Counts == nil {
		t.Counts, t.Right = map[Shape]float64{}, map[Shape]float64{}
	}
	t.Total += w
	t.Counts[s] += w
	t.Counts[s.kindOf()] += w
	if right {
		t.RightTotal += w
		t.Right[s] += w
		t.Right[s.kindOf()] += w
	}
}

// shapePrior is how many answers of the coarser shape a shape's record
// of right answers is shrunk by (its kind's record, the kind's by all).
const shapePrior = 5

// record is the log-odds that an answer of shape s is right, from the
// answers of the fit of its shape, shrunk towards its kind's and the
// kind's towards all answers', less the log-odds over all answers: above
// zero for a shape more often right than the rest, zero for one the fit
// never met.
func (t ShapeCounts) record(s Shape) float64 {
	if t.Total <= 0 {
		return 0
	}
	all := (t.RightTotal + 1) / (t.Total + 2)
	k := s.kindOf()
	kind := (t.Right[k] + shapePrior*all) / (t.Counts[k] + shapePrior)
	shape := (t.Right[s] + shapePrior*kind) / (t.Counts[s] + shapePrior)
	return logit(shape) - logit(all)
}

func logit(p float64) float64 { return math.Log(p / (1 - p)) }

// Sub is t without the answers of u (a subset of t's): the counts an
// answer's own group of captions did not add to.
func (t ShapeCounts) Sub(u ShapeCounts) ShapeCounts {
	out := ShapeCounts{Total: t.Total - u.Total, Counts: make(map[Shape]float64, len(t.Counts)),
		RightTotal: t.RightTotal - u.RightTotal, Right: make(map[Shape]float64, len(t.Right))}
	for s, n := range t.Counts {
		if n -= u.Counts[s]; n > 1e-9 {
			out.Counts[s] = n
		}
	}
	for s, n := range t.Right {
		if n -= u.Right[s]; n > 1e-9 {
			out.Right[s] = n
		}
	}
	return out
}

// perMille is how many answers of every thousand of the fit were of
// shape s: a share, so that the features mean the same whether the
// counts are a fold's or all the answers'.
func (t ShapeCounts) perMille(s Shape) float64 {
	if t.Total <= 0 {
		return 0
	}
	return 1000 * t.Counts[s] / t.Total
}

// SetShape sets the out-of-distribution features of x, an answer of shape
// s, from the counts t of the answers a model is fitted on. It is the
// one computation of them: the geocoder's, with its model's counts, and
// the fit's, with the counts of the answers outside the example's own
// fold (an answer counted in its own shape's count would never look new).
func (t ShapeCounts) SetShape(x *Features, s Shape) {
	shape, kind := t.perMille(s), t.perMille(s.kindOf())
	x[fUnseenShape] = flag(shape == 0)
	x[fShapeFrequency] = math.Log1p(shape)
	x[fKindFrequency] = math.Log1p(kind)
	_, others := s.otherKinds()
	x[fOtherKinds] = flag(others != "")
	x[fShapeRecord] = t.record(s)
}

// otherKinds splits the shape into the answer's and the other kinds of
// place the caption names (see otherKinds).
func (s Shape) otherKinds() (Shape, string) {
	i := strings.LastIndexByte(string(s), '|')
	if i < 0 {
		return s, ""
	}
	return s[:i], string(s[i+1:])
}

// ShapeFeatures are the indexes of the features SetShape sets.
var ShapeFeatures = [...]int{fUnseenShape, fShapeFrequency, fKindFrequency, fOtherKinds, fShapeRecord}

package geocode

import (
	"fmt"
	"io"

	"github.com/syriamap/syriamap/internal/geoparse/caption"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
)

// Explanation is how Geocode reached its answer: the names the caption
// reader found, every reading the rules weighed, and the confidence
// model's features of the answer.
type Explanation struct {
	Result   Result
	Mentions []caption.Mention
	// Readings are the readings weighed, best first.
	Readings []Reading
	// Chosen is the index in Readings the answer comes from, or -1.
	Chosen int
	// Features are the answer's inputs to the confidence model (zero when
	// nothing was placed).
	Features Features
	// Shape is the answer's shape (see Shape), whose counts in the
	// model's fit give its out-of-distribution features.
	Shape Shape
	// Model is the confidence model that answered.
	Model Model
	// Ceiling is the most the confidence may be whatever the model says:
	// 1/(k+1) for k other places of the same name all but as likely.
	Ceiling float64
}

// Reading is one reading of one name, as the rules scored it.
type Reading struct {
	Place   *gazetteer.Place
	Mention int // index in Mentions
	Text    string
	// Score is the rules' score after the context rules; Base before them.
	Score, Base float64
	// Far: nowhere near the other places named; Whole: the whole name,
	// not a piece of a longer one; Exact: spelt as the gazetteer does.
	Far, Whole, Exact, Contradicted bool
}

// Explain geocodes c as Geocode does and says how.
func (gc *Geocoder) Explain(c caption.Caption) Explanation {
	ex := Explanation{Mentions: c.Mentions, Chosen: -1}
	ex.Result = gc.geocode(c, &ex)
	return ex
}

func (ex *Explanation) explain(c caption.Caption, cands []candidate, best int) {
	ex.Chosen = best
	ex.Mentions = c.Mentions // as weighed (an Arabic caption's are narrowed)
	for _, cd := range cands {
		ex.Readings = append(ex.Readings, Reading{Place: cd.hit.Place, Mention: cd.mention, Text: c.Text[cd.hit.Start:cd.hit.End],
			Score: cd.score, Base: cd.base, Far: cd.far, Whole: cd.whole, Exact: cd.hit.Exact, Contradicted: cd.contradicted})
	}
}

// Shares are each feature's part in the answer's log-odds: its value
// times its weight.
func (ex *Explanation) Shares() [NumFeatures]float64 {
	var out [NumFeatures]float64
	for i, w := range ex.Model.Weights {
		out[i] = w * ex.Features[i]
	}
	return out
}

// Write prints the explanation for a person: the mentions, the readings
// and the confidence model's features with their shares.
func (ex *Explanation) Write(w io.Writer) error {
	pw := &printer{w: w}
	r := ex.Result
	if r.Place != nil {
		pw.printf("answer: %s (%s %s, %s) %s, confidence %.2f\n", r.Place.Name, r.Place.Kind, r.Place.ID, r.Place.Country, r.Precision, r.Confidence)
	} else {
		pw.printf("answer: none\n")
	}
	if r.Note != "" {
		pw.printf("  note: %s\n", r.Note)
	}
	if len(r.Unknown) > 0 {
		pw.printf("  names the gazetteer lacks: %q\n", r.Unknown)
	}
	pw.printf("mentions:\n")
	for i, m := range ex.Mentions {
		pw.printf("  m%d %q role=%s cue=%q designator=%q entity=%q sentence=%d possessive=%v subordinate=%v\n",
			i, m.Text, m.Role, m.Cue, m.Designator, m.Entity, m.Sentence, m.Possessive, m.Subordinate)
	}
	pw.printf("readings (best first; * the answer's):\n")
	for i, rd := range ex.Readings {
		mark := " "
		if i == ex.Chosen {
			mark = "*"
		}
		pw.printf(" %s m%d %-28q %s (%s %s, %s) score=%.3f base=%.3f far=%v whole=%v exact=%v contradicted=%v\n",
			mark, rd.Mention, rd.Text, rd.Place.Name, rd.Place.Kind, rd.Place.ID, rd.Place.Country, rd.Score, rd.Base, rd.Far, rd.Whole, rd.Exact, rd.Contradicted)
	}
	if r.Place != nil && ex.Chosen >= 0 {
		m := ex.Model
		pw.printf("confidence model (%s): log-odds %.2f, probability %.2f, ceiling %.2f\n", m.FittedOn, m.Logit(ex.Features), m.Probability(ex.Features), ex.Ceiling)
		pw.printf("  shape %q: %.0f of the fit's %.0f answers, %.0f of its kind\n", ex.Shape, m.Shapes.Counts[ex.Shape], m.Shapes.Total, m.Shapes.Counts[ex.Shape.kindOf()])
		shares := ex.Shares()
		for i, name := range FeatureNames {
			pw.printf("  %-28s value %6.2f  weight %6.2f  share %+6.2f\n", name, ex.Features[i], m.Weights[i], shares[i])
		}
	}
	return pw.err
}

// printer keeps the first write error.
type printer struct {
	w   io.Writer
	err error
}

func (p *printer) printf(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}

package main

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/syriamap/syriamap/internal/geoparse/caption"
	"github.com/syriamap/syriamap/internal/geoparse/evalset"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/geoparse/geocode"
)

// dataset is the labelled captions geocoded: the placed answers the
// model is fitted on (examples) and, by real caption, its answer.
type dataset struct {
	g        *gazetteer.Gazetteer
	gc       *geocode.Geocoder
	o        options
	quarters *quarterTable
	examples []example
	// By real caption, in order: its answer, its example (-1 when
	// unplaced), its fold, its labelled kind and whether it is Arabic.
	answers  []evalset.Answer
	index    []int
	foldOf   []int
	kindOf   []string
	arabicOf []bool
}

func newDataset(g *gazetteer.Gazetteer, o options) *dataset {
	return &dataset{g: g, gc: geocode.New(g), o: o, quarters: newQuarterTable(g)}
}

// add geocodes the labelled caption lc, of fold fold (-1: written) whose
// shape counts leave out group.
func (d *dataset) add(lc evalset.Caption, arabic bool, fold, group int) {
	// The geocode command joins a caption's lines; so does score.py.
	c := caption.Parse(strings.Join(strings.Fields(lc.Text), " "))
	ex := d.gc.Explain(c)
	right := evalset.PlaceVerdict(lc, ex.Result.Place, d.g) == evalset.OK
	kind := realKind(lc)
	if lc.Real() {
		d.quarters.add(lc, ex.Result.Place, right)
	} else {
		kind = writtenKind(lc, d.g)
	}
	// A fallback is a coarser answer than the caption gives: the written
	// captions expect it, but score.py counts a quarter answered by its
	// city as wrong, and the confidence says so.
	if !lc.Real() && ex.Result.Precision == geocode.Fallback {
		right = false
	}
	idx := -1
	if ex.Result.Place != nil && ex.Chosen >= 0 {
		w := d.o.writtenWeight
		if lc.Real() {
			w = 1
		}
		idx = len(d.examples)
		d.examples = append(d.examples, example{x: ex.Features, shape: ex.Shape, ceiling: ex.Ceiling, right: right, weight: w,
			real: lc.Real(), arabic: arabic, fold: fold, group: group, kind: kind, text: lc.Text,
			answer: ex.Result.Place.Name + " (" + string(ex.Result.Place.Kind) + ", " + ex.Result.Place.Country + ")"})
	}
	if lc.Real() {
		d.answers = append(d.answers, evalset.Answer{Placed: ex.Result.Place != nil, Right: right})
		d.index = append(d.index, idx)
		d.foldOf = append(d.foldOf, fold)
		d.kindOf = append(d.kindOf, kind)
		d.arabicOf = append(d.arabicOf, arabic)
	}
}

func (d *dataset) english(k int) bool { return !d.arabicOf[k] }
func (d *dataset) arabic(k int) bool  { return d.arabicOf[k] }

// fitted is a fitted model: its weights and the shape counts of the
// answers it was fitted on.
type fitted struct {
	w       []float64
	shapes  geocode.ShapeCounts
	noShape bool
}

// features are e's features under the model f: its shape's features
// from f's counts, as the geocoder computes them with a model's.
func (f fitted) features(e example) geocode.Features {
	x := e.x
	f.setShape(&x, e.shape, f.shapes)
	return x
}

// setShape sets x's shape features from the counts t, or zeroes them
// when the model is fitted without them (--no-shape).
func (f fitted) setShape(x *geocode.Features, s geocode.Shape, t geocode.ShapeCounts) {
	t.SetShape(x, s)
	if f.noShape {
		for _, i := range geocode.ShapeFeatures {
			x[i] = 0
		}
	}
}

func (f fitted) predict(e example) float64 { return probability(f.w, f.features(e)) }

// fit fits the model to the examples use selects (see geocode.Fit). An
// example's shape features are from the counts of the selected answers
// outside its own group (geocode.ShapeCounts.SetShape): in the fit as on
// a new caption, an answer's shape is as common as the other answers make
// it.
func (d *dataset) fit(use func(example) bool) fitted {
	f := fitted{noShape: d.o.noShape}
	byGroup := map[int]*geocode.ShapeCounts{}
	for _, e := range d.examples {
		if !use(e) {
			continue
		}
		f.shapes.Add(e.shape, e.weight, e.right)
		if byGroup[e.group] == nil {
			byGroup[e.group] = &geocode.ShapeCounts{}
		}
		byGroup[e.group].Add(e.shape, e.weight, e.right)
	}
	outside := map[int]geocode.ShapeCounts{}
	for g, t := range byGroup {
		outside[g] = f.shapes.Sub(*t)
	}
	var sel []geocode.Example
	for _, e := range d.examples {
		if use(e) {
			x := e.x
			f.setShape(&x, e.shape, outside[e.group])
			sel = append(sel, geocode.Example{X: x, Right: e.right, Weight: e.weight})
		}
	}
	f.w = geocode.Fit(sel, d.o.l2, nil)
	return f
}

// crossValidate gives each real caption's example the confidence of the
// model fitted without its fold, by example.
func (d *dataset) crossValidate() []float64 {
	cv := make([]float64, len(d.examples))
	for f := range d.o.folds {
		m := d.fit(func(e example) bool { return e.fold != f })
		for i, e := range d.examples {
			if e.real && e.fold == f {
				cv[i] = m.predict(e)
			}
		}
	}
	return cv
}

// scored are the real captions keep selects, with the confidences conf
// gives by example (rounded and bounded as the geocoder's).
func (d *dataset) scored(keep func(k int) bool, conf []float64) []evalset.Answer {
	var out []evalset.Answer
	for k, i := range d.index {
		if !keep(k) {
			continue
		}
		a := d.answers[k]
		if i >= 0 {
			a.Confidence = math.Round(clamp(math.Min(conf[i], d.examples[i].ceiling))*100) / 100
		}
		out = append(out, a)
	}
	return out
}

// report prints the figures of the real captions keep selects, with the
// confidences conf gives by example.
func (d *dataset) report(w io.Writer, name string, keep func(k int) bool, conf []float64) {
	answers := d.scored(keep, conf)
	right := 0
	for _, a := range answers {
		if a.Right {
			right++
		}
	}
	fmt.Fprintf(w, "%s: place %d/%d (%.1f %%); %s\n", name, right, len(answers), 100*float64(right)/float64(max(1, len(answers))), evalset.Calibrate(answers))
}

package main

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/geodata"
	"github.com/syriamap/syriamap/internal/geoparse/caption"
	"github.com/syriamap/syriamap/internal/geoparse/evalset"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/geoparse/geocode"
)

// trainingSet is the written test captions of two files, geocoded as the
// command does, dealt round two folds; real captions are labelled from
// the written ones' kinds so that the leave-one-kind-out table has rows.
func trainingSet(t *testing.T) *dataset {
	t.Helper()
	g, err := gazetteer.Load(geodata.Gazetteer)
	if err != nil {
		t.Fatal(err)
	}
	d := newDataset(g, options{l2: 2, writtenWeight: 0.25, folds: 2})
	for _, file := range []string{"captions-1.jsonl", "captions-2.jsonl"} {
		caps, err := evalset.Read("../../internal/geoparse/geocode/testdata/" + file)
		if err != nil {
			t.Fatal(err)
		}
		for i, lc := range caps {
			d.add(lc, false, -1, i%2)
		}
	}
	if len(d.examples) < 50 {
		t.Fatalf("%d placed answers, too few to fit on", len(d.examples))
	}
	return d
}

// TestFitFeaturesAreTheGeocoders: a fitted model's features of an answer,
// as the fit computes them from its own shape counts, are the features
// the geocoder computes with that model (its counts in model.json): one
// computation, so what the weights were fitted on is what they weigh.
func TestFitFeaturesAreTheGeocoders(t *testing.T) {
	d := trainingSet(t)
	half := d.fit(func(e example) bool { return e.group == 0 })
	m := geocode.Model{Features: geocode.FeatureNames[:], Weights: half.w, Shapes: half.shapes}
	gc := geocode.NewWithModel(d.g, m)
	unseen := 0
	for _, e := range d.examples {
		ex := gc.Explain(caption.Parse(strings.Join(strings.Fields(e.text), " ")))
		if ex.Shape != e.shape {
			t.Fatalf("%q: shape %q geocoded, %q in the fit", e.text, ex.Shape, e.shape)
		}
		if got := half.features(e); got != ex.Features {
			t.Errorf("%q: the fit's features\n%v\nthe geocoder's\n%v", e.text, got, ex.Features)
		}
		if p, q := half.predict(e), m.Probability(ex.Features); math.Abs(p-q) > 1e-12 {
			t.Errorf("%q: %.4f in the fit, %.4f geocoded", e.text, p, q)
		}
		if half.shapes.Counts[e.shape] == 0 {
			unseen++
		}
	}
	if unseen == 0 {
		t.Error("every shape of the other half was seen in the first: the comparison covers no unseen shape")
	}
}

// TestLeaveOneKindOut: the table has a row for each labelled kind, and a
// kind's answers are scored by a fit that holds none of its kind.
func TestLeaveOneKindOut(t *testing.T) {
	d := trainingSet(t)
	kinds := map[string]bool{}
	for i := range d.examples {
		e := &d.examples[i]
		e.real, e.fold = true, e.group
		kinds[e.kind] = true
	}
	for i, e := range d.examples {
		d.answers = append(d.answers, evalset.Answer{Placed: true, Right: e.right})
		d.index = append(d.index, i)
		d.foldOf = append(d.foldOf, e.fold)
		d.kindOf = append(d.kindOf, e.kind)
		d.arabicOf = append(d.arabicOf, false)
	}
	var b bytes.Buffer
	d.leaveOneKindOut(&b)
	for kind := range kinds {
		if !strings.Contains(b.String(), "\n  "+kind+" ") {
			t.Errorf("no row for %s:\n%s", kind, b.String())
		}
	}
	if len(kinds) < 3 {
		t.Errorf("kinds %v: too few to leave one out", kinds)
	}
}

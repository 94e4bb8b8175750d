package geocode_test

import (
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/geoparse/caption"
	"github.com/syriamap/syriamap/internal/geoparse/geocode"
)

// TestUnseenShapeIsLessSure: the same answer to the same caption is less
// sure when the answers the model was fitted on never had its shape than
// when they often had, all else equal — the same weights, the same
// number of answers of its kind of place (issue 66, 3: the confidence
// fitted on the shared captions trusted the rules as much on kinds of
// caption it never met).
func TestUnseenShapeIsLessSure(t *testing.T) {
	gc, g := newGeocoder(t)
	for _, text := range []string{
		"Rebel fighters rest in the village of Kafr Nabl, Idlib province, Syria, May 2, 2015. REUTERS/Stringer",
		"Children play in the Atmeh camp near the Turkish border, Syria, March 1, 2014. REUTERS/Stringer",
		"Smoke rises over Aleppo's al-Shaar neighbourhood, Syria, October 11, 2016. REUTERS/Abdalrhman Ismail",
		"Displaced children stand in a makeshift camp in the town of Sarmada, Idlib province, Syria, November 22, 2015. REUTERS/Stringer",
		"حي طارق الباب أحد المناطق التي تعرضت لقصف مكثف في حلب",
	} {
		c := caption.Parse(text)
		shape := gc.Explain(c).Shape
		if shape == "" {
			t.Errorf("%q: placed nowhere, no shape to test", text)
			continue
		}
		kind, _, _ := strings.Cut(string(shape), "|")
		common, unseen := geocode.Shipped(), geocode.Shipped()
		common.Shapes, unseen.Shapes = geocode.ShapeCounts{}, geocode.ShapeCounts{}
		// Nine answers in ten right, whatever their shape: only how often
		// the shape was met differs.
		add := func(counts *geocode.ShapeCounts, s geocode.Shape, n float64) {
			counts.Add(s, 0.9*n, true)
			counts.Add(s, 0.1*n, false)
		}
		add(&common.Shapes, shape, 100)
		add(&common.Shapes, geocode.Shape(kind+"|another|||"), 200)
		add(&unseen.Shapes, geocode.Shape(kind+"|another|||"), 300)
		for _, counts := range []*geocode.ShapeCounts{&common.Shapes, &unseen.Shapes} {
			add(counts, "elsewhere||||", 700)
		}
		exCommon := geocode.NewWithModel(g, common).Explain(caption.Parse(text))
		exUnseen := geocode.NewWithModel(g, unseen).Explain(caption.Parse(text))
		if exCommon.Result.Place != exUnseen.Result.Place || exCommon.Shape != shape || exUnseen.Shape != shape {
			t.Fatalf("%q: the shape counts changed the answer (%v, %s; %v, %s)", text, exCommon.Result.Place, exCommon.Shape, exUnseen.Result.Place, exUnseen.Shape)
		}
		pc, pu := common.Probability(exCommon.Features), unseen.Probability(exUnseen.Features)
		if pu >= pc || exUnseen.Result.Confidence > exCommon.Result.Confidence {
			t.Errorf("%q (shape %s): %.3f (confidence %.2f) unseen, %.3f (%.2f) common", text, shape, pu, exUnseen.Result.Confidence, pc, exCommon.Result.Confidence)
		}
	}
}

// TestShapeNamesOtherKinds: an answer's shape says which kinds of place
// the caption names that the answer is not — a camp answered by the town
// it is in, a quarter answered by its city — in English and in Arabic.
func TestShapeNamesOtherKinds(t *testing.T) {
	gc, _ := newGeocoder(t)
	tests := []struct {
		text, suffix string
	}{
		{"Displaced children stand in a makeshift camp in the town of Sarmada, Idlib province, Syria, November 22, 2015. REUTERS/Stringer", "|camp"},
		{"Rebels walk in Aleppo's Tariq al-Bab neighbourhood, Syria, May 2, 2013. REUTERS/Stringer", "|neighbourhood"},
		{"حي طارق الباب أحد المناطق التي تعرضت لقصف مكثف في حلب", "|neighbourhood"},
		{"Residents walk in the town of Douma, Syria, March 13, 2016. REUTERS/Bassam Khabieh", "|"},
	}
	for _, tt := range tests {
		ex := gc.Explain(caption.Parse(tt.text))
		if !strings.HasSuffix(string(ex.Shape), tt.suffix) || strings.Count(string(ex.Shape), "|") != 4 {
			t.Errorf("%q: shape %q, want it to end %q", tt.text, ex.Shape, tt.suffix)
		}
	}
}

// TestShapeRecord: the same answer is less sure when answers of its shape
// were often wrong in the fit than when they were right, as often met.
func TestShapeRecord(t *testing.T) {
	gc, g := newGeocoder(t)
	text := "Rebel fighters rest in the village of Kafr Nabl, Idlib province, Syria, May 2, 2015. REUTERS/Stringer"
	shape := gc.Explain(caption.Parse(text)).Shape
	conf := func(right float64) float64 {
		m := geocode.Shipped()
		m.Shapes = geocode.ShapeCounts{}
		m.Shapes.Add(shape, 100*right, true)
		m.Shapes.Add(shape, 100*(1-right), false)
		m.Shapes.Add("elsewhere||||", 810, true)
		m.Shapes.Add("elsewhere||||", 90, false)
		ex := geocode.NewWithModel(g, m).Explain(caption.Parse(text))
		return m.Probability(ex.Features)
	}
	if often, seldom := conf(0.95), conf(0.5); seldom >= often {
		t.Errorf("%q (shape %s): %.3f when its shape was right half the time, %.3f when 95 times in 100", text, shape, seldom, often)
	}
}

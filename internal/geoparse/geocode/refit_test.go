package geocode_test

import (
	"math"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/geoparse/geocode"
)

// answerWith is an answer's features: a bias, a rule confidence, and a
// fallback or not.
func answerWith(rule float64, fallback bool) geocode.Features {
	var x geocode.Features
	x[0], x[1] = 1, math.Log(rule)
	if fallback {
		x[2] = 1
	}
	return x
}

// A refit on the least confident answers (as the review queue draws
// them) speaks only for what they can tell: found wrong, that kind of
// answer is less sure after it, while an answer surer than any reviewed
// one keeps the shipped confidence; found right, no answer is made surer
// than the shipped model made it (unsure answers found right regress to
// the mean). A refit is kept only when it beats the model it would
// replace on reviews it was not fitted on (issue 53, part 3:
// confirmations among the least confident raised every answer's
// confidence, and made the sure answers less often right).
func TestRefitSpeaksOnlyForWhatItsReviewsCover(t *testing.T) {
	shipped := geocode.Shipped()
	reviewsOf := func(right bool) []geocode.Example {
		var out []geocode.Example
		for i := range 60 {
			x := answerWith(0.2+0.002*float64(i), true) // fallbacks, unsure
			out = append(out, geocode.Example{X: x, Right: right, Weight: 1})
		}
		return out
	}
	wrong := reviewsOf(false)
	cover := 0.0
	for _, e := range wrong {
		cover = math.Max(cover, shipped.Probability(e.X))
	}
	m, kept, why, err := geocode.Refit(wrong, shipped)
	if err != nil || !kept {
		t.Fatalf("reviews that find unsure answers wrong: kept %v (%s), %v", kept, why, err)
	}
	if got, was := m.Probability(wrong[0].X), shipped.Probability(wrong[0].X); got >= was-0.05 {
		t.Errorf("the reviewed kind of answer, found wrong: %.3f after the refit, %.3f before", got, was)
	}
	// Held to its prior: a weight the reviews say nothing of (a feature
	// none of them has) is the shipped model's, not pulled to zero
	// (issue 55, 3: a refit that ignored its prior passed every test).
	for i := 3; i < geocode.NumFeatures; i++ {
		if math.Abs(m.Weights[i]-shipped.Weights[i]) > 1e-9 {
			t.Errorf("%s, which no review has: weight %.3f after the refit, %.3f shipped", geocode.FeatureNames[i], m.Weights[i], shipped.Weights[i])
		}
	}
	// The refit weighs the shape features the archive's answers were
	// given, from the shipped model's counts: it keeps them.
	if m.Shapes.Total != shipped.Shapes.Total || len(m.Shapes.Counts) != len(shipped.Shapes.Counts) || shipped.Shapes.Total == 0 {
		t.Errorf("the refit counts %.0f answers' shapes (%d shapes), the shipped model %.0f (%d)", m.Shapes.Total, len(m.Shapes.Counts), shipped.Shapes.Total, len(shipped.Shapes.Counts))
	}
	sure := answerWith(0.95, false)
	if got, want := m.Probability(sure), shipped.Probability(sure); want <= cover || got != want {
		t.Errorf("a sure answer (shipped %.3f, reviews cover up to %.3f): %.3f after the refit", want, cover, got)
	}
	right := reviewsOf(true)
	m2, _, _, err := geocode.Refit(right, shipped)
	if err != nil {
		t.Fatal(err)
	}
	for _, rule := range []float64{0.2, 0.3, 0.5, 0.7, 0.95} {
		for _, fallback := range []bool{true, false} {
			x := answerWith(rule, fallback)
			if p0, p := shipped.Probability(x), m2.Probability(x); p > p0+1e-12 {
				t.Errorf("rule %.2f, fallback %v: shipped %.3f, %.3f after a refit on answers found right", rule, fallback, p0, p)
			}
		}
	}
	// Against a model already fitted on these very reviews, a refit
	// scored on reviews it was not fitted on cannot do better: the
	// archive keeps the model it has, and says why.
	again, kept, why, err := geocode.Refit(wrong, m)
	if err != nil || kept || !strings.Contains(why, "keeps its model") || again.Cover != m.Cover || again.FittedOn != m.FittedOn {
		t.Errorf("a refit that does not beat the model it would replace: kept %v (%s), %v", kept, why, err)
	}
}

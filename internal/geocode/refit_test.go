package geocode_test

import (
	"math"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/geocode"
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
// them), all confirmed right, speaks only for answers as unsure as
// those: a sure answer keeps the shipped confidence, none is raised past
// the surest reviewed one, and the refit is kept only because it beats the
// shipped model on reviews it was not fitted on. Reviews that say nothing
// the shipped model does not know leave the archive with its model
// (issue 53, part 3: confirmations among the least confident raised every
// answer's confidence).
func TestRefitSpeaksOnlyForWhatItsReviewsCover(t *testing.T) {
	shipped := geocode.Shipped()
	var reviews []geocode.Example
	for i := range 60 {
		x := answerWith(0.2+0.002*float64(i), true) // fallbacks, unsure
		reviews = append(reviews, geocode.Example{X: x, Right: true, Weight: 1})
	}
	cover := 0.0
	for _, e := range reviews {
		cover = math.Max(cover, shipped.Probability(e.X))
	}
	m, kept, why, err := geocode.Refit(reviews, shipped)
	if err != nil || !kept {
		t.Fatalf("reviews that find unsure answers right: kept %v (%s), %v", kept, why, err)
	}
	sure := answerWith(0.95, false)
	if got, want := m.Probability(sure), shipped.Probability(sure); want <= cover || got != want {
		t.Errorf("a sure answer (shipped %.3f, reviews cover up to %.3f): %.3f after the refit", want, cover, got)
	}
	for _, rule := range []float64{0.3, 0.5, 0.7} {
		x := answerWith(rule, true)
		if p0, p := shipped.Probability(x), m.Probability(x); p > math.Max(cover, p0)+1e-12 {
			t.Errorf("rule %.1f, a fallback: shipped %.3f, refitted %.3f, above the reviews' cover %.3f", rule, p0, p, cover)
		}
	}
	if m.Probability(reviews[0].X) <= shipped.Probability(reviews[0].X) {
		t.Errorf("the reviewed kind of answer, found right, is no surer after the refit")
	}
	// Against a model already fitted on these very reviews, a refit
	// scored on reviews it was not fitted on cannot do better: the
	// archive keeps the model it has, and says why.
	again, kept, why, err := geocode.Refit(reviews, m)
	if err != nil || kept || !strings.Contains(why, "keeps its model") || again.Cover != m.Cover || again.FittedOn != m.FittedOn {
		t.Errorf("a refit that does not beat the model it would replace: kept %v (%s), %v", kept, why, err)
	}
}

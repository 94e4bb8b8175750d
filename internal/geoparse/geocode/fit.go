package geocode

import (
	"fmt"
	"math"
)

// Example is one placed answer a model is fitted on: its features,
// whether it was right, and its weight in the fit.
type Example struct {
	X      Features
	Right  bool
	Weight float64
}

// Fit fits a weighted logistic regression to the examples by Newton's
// method, which is deterministic. The penalty l2 pulls every weight but
// the bias towards prior's (towards zero when prior is nil): fitted on an
// archive's reviews with the shipped weights as prior, a few reviews move
// the model a little and many move it far.
func Fit(examples []Example, l2 float64, prior []float64) []float64 {
	const n = NumFeatures
	w := make([]float64, n)
	center := make([]float64, n)
	if prior != nil {
		copy(center, prior)
		copy(w, prior)
	}
	first := 1 // fitted afresh, the bias is free
	if prior != nil {
		// Refitted, the bias is held to the prior's like every weight (a
		// refit on an archive's least confident answers must not move
		// every answer's confidence).
		first = 0
	}
	// loss is the penalised negative log-likelihood the steps descend.
	loss := func(w []float64) float64 {
		l := 0.0
		for _, e := range examples {
			z := 0.0
			for i := range n {
				z += w[i] * e.X[i]
			}
			if e.Right {
				z = -z
			}
			l += e.Weight * softplus(z)
		}
		for i := first; i < n; i++ {
			l += l2 / 2 * (w[i] - center[i]) * (w[i] - center[i])
		}
		return l
	}
	for range 100 {
		var grad [n]float64
		var hess [n][n]float64
		for _, e := range examples {
			p := probability(w, e.X)
			y := 0.0
			if e.Right {
				y = 1
			}
			for i := range n {
				grad[i] += e.Weight * (p - y) * e.X[i]
				for j := range n {
					hess[i][j] += e.Weight * p * (1 - p) * e.X[i] * e.X[j]
				}
			}
		}
		for i := first; i < n; i++ {
			grad[i] += l2 * (w[i] - center[i])
			hess[i][i] += l2
		}
		hess[0][0] += 1e-6 // a bias always present keeps it invertible
		step := solve(hess, grad)
		// Newton's step, halved until it lowers the loss: a full step
		// from far away overshoots, and on answers that are all wrong it
		// would swing back and forth for ever.
		before, next := loss(w), make([]float64, n)
		change := 0.0
		for scale := 1.0; scale > 1e-6; scale /= 2 {
			for i := range n {
				next[i] = w[i] - scale*step[i]
			}
			if loss(next) <= before {
				for i := range n {
					change = math.Max(change, math.Abs(next[i]-w[i]))
				}
				copy(w, next)
				break
			}
		}
		if change < 1e-9 {
			break
		}
	}
	return w
}

// softplus is log(1 + e^z), without overflow.
func softplus(z float64) float64 {
	if z > 30 {
		return z
	}
	return math.Log1p(math.Exp(z))
}

// MinReviews is how many reviewed answers an archive needs before its
// confidence is refitted on them (see Refit).
const MinReviews = 50

// refitL2 is the pull of the shipped weights on a refit: as strong as
// about ten reviews on each weight.
const refitL2 = 10

// refitFolds are the folds a refit is scored on before it is kept.
const refitFolds = 5

// Refit fits the model again on an archive's reviewed answers (a
// confirmed answer right, a corrected one wrong), with the shipped model
// as its prior (the bias held to it like every weight), speaking only for
// the answers as unsure as the reviewed ones (Model.Cover). It is kept
// only when it beats current, the model it would replace, on reviews it
// was not fitted on: fitted on four fifths of them and scored (log loss)
// on the fifth, five times. keep is false otherwise, and why says which
// way, with the figures. It refuses fewer than MinReviews.
func Refit(reviews []Example, current Model) (m Model, keep bool, why string, err error) {
	if len(reviews) < MinReviews {
		return Model{}, false, "", fmt.Errorf("geocode: %d reviewed answers, the refit needs %d", len(reviews), MinReviews)
	}
	right, cover := 0, 0.0
	for _, e := range reviews {
		if e.Right {
			right++
		}
		cover = math.Max(cover, probability(model.Weights, e.X))
	}
	fitOn := func(use func(i int) bool) Model {
		var sel []Example
		for i, e := range reviews {
			if use(i) {
				sel = append(sel, e)
			}
		}
		return Model{Features: FeatureNames[:], Weights: Fit(sel, refitL2, model.Weights), L2: refitL2, Prior: model.Weights, Cover: cover, Shapes: model.Shapes}
	}
	var outOfFold, before float64
	for f := range refitFolds {
		mf := fitOn(func(i int) bool { return i%refitFolds != f })
		for i, e := range reviews {
			if i%refitFolds == f {
				outOfFold += logLoss(mf.Probability(e.X), e.Right)
				before += logLoss(current.Probability(e.X), e.Right)
			}
		}
	}
	n := float64(len(reviews))
	m = fitOn(func(int) bool { return true })
	m.FittedOn = fmt.Sprintf("the archive's %d reviewed answers (%d right), shrunk towards the shipped model (%s), for answers up to %.2f sure", len(reviews), right, model.FittedOn, cover)
	if outOfFold >= before {
		return current, false, fmt.Sprintf("a refit on the %d reviewed answers would not be more honest on reviews it was not fitted on (log loss %.3f out of fold, %.3f with the model the archive has): the archive keeps its model", len(reviews), outOfFold/n, before/n), nil
	}
	return m, true, fmt.Sprintf("refitted on the %d reviewed answers: log loss %.3f out of fold, against %.3f with the model it replaces", len(reviews), outOfFold/n, before/n), nil
}

// logLoss is an answer's log loss at confidence p (clamped as answers are).
func logLoss(p float64, right bool) float64 {
	p = math.Max(0.01, math.Min(0.99, p))
	if right {
		return -math.Log(p)
	}
	return -math.Log(1 - p)
}

// Shipped is the model the app ships (model.json).
func Shipped() Model { return model }

func probability(w []float64, x Features) float64 {
	z := 0.0
	for i := range w {
		z += w[i] * x[i]
	}
	return 1 / (1 + math.Exp(-z))
}

// solve solves a x = b by Gaussian elimination with partial pivoting.
func solve(a [NumFeatures][NumFeatures]float64, b [NumFeatures]float64) [NumFeatures]float64 {
	const n = NumFeatures
	for col := range n {
		pivot := col
		for r := col + 1; r < n; r++ {
			if math.Abs(a[r][col]) > math.Abs(a[pivot][col]) {
				pivot = r
			}
		}
		a[col], a[pivot] = a[pivot], a[col]
		b[col], b[pivot] = b[pivot], b[col]
		if a[col][col] == 0 {
			continue
		}
		for r := col + 1; r < n; r++ {
			f := a[r][col] / a[col][col]
			for k := col; k < n; k++ {
				a[r][k] -= f * a[col][k]
			}
			b[r] -= f * b[col]
		}
	}
	var x [n]float64
	for r := n - 1; r >= 0; r-- {
		if a[r][r] == 0 {
			continue
		}
		s := b[r]
		for k := r + 1; k < n; k++ {
			s -= a[r][k] * x[k]
		}
		x[r] = s / a[r][r]
	}
	return x
}

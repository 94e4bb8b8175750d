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
	for range 50 {
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
		for i := 1; i < n; i++ {
			grad[i] += l2 * (w[i] - center[i])
			hess[i][i] += l2
		}
		hess[0][0] += 1e-6 // a bias always present keeps it invertible
		step := solve(hess, grad)
		change := 0.0
		for i := range n {
			w[i] -= step[i]
			change = math.Max(change, math.Abs(step[i]))
		}
		if change < 1e-9 {
			break
		}
	}
	return w
}

// MinReviews is how many reviewed answers an archive needs before its
// confidence is refitted on them (see Refit).
const MinReviews = 50

// refitL2 is the pull of the shipped weights on a refit: as strong as
// about ten reviews on each weight.
const refitL2 = 10

// Refit fits the model again on an archive's reviewed answers (a
// confirmed answer right, a corrected one wrong), with the shipped model
// as its prior; it refuses fewer than MinReviews.
func Refit(reviews []Example) (Model, error) {
	if len(reviews) < MinReviews {
		return Model{}, fmt.Errorf("geocode: %d reviewed answers, the refit needs %d", len(reviews), MinReviews)
	}
	right := 0
	for _, e := range reviews {
		if e.Right {
			right++
		}
	}
	return Model{Features: FeatureNames[:], Weights: Fit(reviews, refitL2, model.Weights), L2: refitL2,
		FittedOn: fmt.Sprintf("the archive's %d reviewed answers (%d right), shrunk towards the shipped model (%s)", len(reviews), right, model.FittedOn)}, nil
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

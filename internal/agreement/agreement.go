// Package agreement measures how often editors agree when they judge the
// same photos independently: Cohen's κ for two raters and
// Krippendorff's α (nominal) for any number, missing ratings allowed.
// Both correct the share that agrees for the agreement chance alone
// would give: 1 is perfect agreement, 0 what chance gives, below 0 worse.
package agreement

import "errors"

// ErrTooFew is the answer when the ratings cannot measure agreement:
// no unit rated twice, or every rating the same value (chance and
// observed agreement are then both complete, and the measure is
// undefined).
var ErrTooFew = errors.New("agreement: too few ratings to measure")

// Pair is two raters' decisions on one unit (a photo): confirm, correct,
// unplaceable, or any other value.
type Pair struct{ A, B string }

// CohenKappa is Cohen's κ over pairs of two raters' decisions on the same
// units: (po − pe) / (1 − pe), po the share of units they agree on, pe
// the agreement their own rates of each value would give by chance.
func CohenKappa(pairs []Pair) (float64, error) {
	if len(pairs) == 0 {
		return 0, ErrTooFew
	}
	n := float64(len(pairs))
	a, b := map[string]float64{}, map[string]float64{}
	agree := 0.0
	for _, p := range pairs {
		a[p.A]++
		b[p.B]++
		if p.A == p.B {
			agree++
		}
	}
	po := agree / n
	pe := 0.0
	for v, na := range a {
		pe += (na / n) * (b[v] / n)
	}
	if pe == 1 {
		return 0, ErrTooFew
	}
	return (po - pe) / (1 - pe), nil
}

// Unit is the values the raters gave one unit, by rater; a rater who
// did not rate it is absent.
type Unit map[string]string

// KrippendorffAlpha is Krippendorff's α for nominal data: 1 − Do/De, Do
// the disagreement observed within units, De the disagreement expected
// from all the values given. Units rated by fewer than two raters are
// left out (they say nothing of agreement), so a rater who rated fewer
// photos counts for those they rated.
func KrippendorffAlpha(units []Unit) (float64, error) {
	// The coincidence matrix o[c][k], from the units rated at least
	// twice: each ordered pair of values in a unit weighs 1/(m−1).
	o := map[string]map[string]float64{}
	n := 0.0
	for _, u := range units {
		m := float64(len(u))
		if m < 2 {
			continue
		}
		var vals []string
		for _, v := range u {
			vals = append(vals, v)
		}
		for i, c := range vals {
			for j, k := range vals {
				if i == j {
					continue
				}
				if o[c] == nil {
					o[c] = map[string]float64{}
				}
				o[c][k] += 1 / (m - 1)
			}
		}
		n += m
	}
	if n == 0 {
		return 0, ErrTooFew
	}
	nc := map[string]float64{}
	for c, row := range o {
		for _, w := range row {
			nc[c] += w
		}
	}
	// Nominal: any two different values disagree by 1.
	do, de := 0.0, 0.0
	for c, row := range o {
		for k, w := range row {
			if c != k {
				do += w
			}
		}
	}
	for c, a := range nc {
		for k, b := range nc {
			if c != k {
				de += a * b
			}
		}
	}
	if de == 0 {
		return 0, ErrTooFew
	}
	return 1 - (n-1)*do/de, nil
}

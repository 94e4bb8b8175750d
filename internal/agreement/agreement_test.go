package agreement

import (
	"errors"
	"math"
	"testing"
)

// TestCohenKappa: against values worked by hand.
func TestCohenKappa(t *testing.T) {
	rep := func(p Pair, n int) []Pair {
		out := make([]Pair, n)
		for i := range out {
			out[i] = p
		}
		return out
	}
	var table []Pair // 50 photos: confirm/confirm 20, correct/correct 15, confirm/correct 5, correct/confirm 10
	table = append(table, rep(Pair{"confirm", "confirm"}, 20)...)
	table = append(table, rep(Pair{"correct", "correct"}, 15)...)
	table = append(table, rep(Pair{"confirm", "correct"}, 5)...)
	table = append(table, rep(Pair{"correct", "confirm"}, 10)...)
	// po = 35/50 = 0.7; A: confirm 25, correct 25; B: confirm 30, correct 20;
	// pe = 0.5·0.6 + 0.5·0.4 = 0.5; κ = (0.7 − 0.5)/(1 − 0.5) = 0.4.
	var three []Pair // 10 photos, three decisions
	three = append(three, rep(Pair{"confirm", "confirm"}, 4)...)
	three = append(three, rep(Pair{"correct", "correct"}, 2)...)
	three = append(three, rep(Pair{"unplaceable", "unplaceable"}, 1)...)
	three = append(three, Pair{"confirm", "correct"}, Pair{"correct", "unplaceable"}, Pair{"unplaceable", "confirm"})
	// po = 7/10; A: confirm 5, correct 3, unplaceable 2; B: confirm 5,
	// correct 3, unplaceable 2; pe = .25 + .09 + .04 = .38;
	// κ = (.7 − .38)/(.62) = 0.516129…
	for _, c := range []struct {
		name  string
		pairs []Pair
		want  float64
	}{
		{"two decisions", table, 0.4},
		{"three decisions", three, 0.32 / 0.62},
		{"perfect", rep(Pair{"confirm", "confirm"}, 3), math.NaN()},
		{"always opposite", append(rep(Pair{"confirm", "correct"}, 2), rep(Pair{"correct", "confirm"}, 2)...), -1},
	} {
		got, err := CohenKappa(c.pairs)
		if math.IsNaN(c.want) {
			if !errors.Is(err, ErrTooFew) {
				t.Errorf("%s: %v, %v; want ErrTooFew (every rating one value)", c.name, got, err)
			}
			continue
		}
		if err != nil || math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s: κ = %v, %v; want %v", c.name, got, err, c.want)
		}
	}
}

// TestKrippendorffAlpha: Krippendorff's own nominal example (Content
// Analysis, 2004, §11.3.1: 4 observers, 12 units, missing values), α =
// 0.743, and a unit rated once left out.
func TestKrippendorffAlpha(t *testing.T) {
	// Units 1–12, observers A–D; "" is a missing rating.
	data := [][4]string{
		{"1", "1", "", "1"}, {"2", "2", "3", "2"}, {"3", "3", "3", "3"}, {"3", "3", "3", "3"},
		{"2", "2", "2", "2"}, {"1", "2", "3", "4"}, {"4", "4", "4", "4"}, {"1", "1", "2", "1"},
		{"2", "2", "2", "2"}, {"", "5", "5", "5"}, {"", "", "1", "1"}, {"", "", "3", ""},
	}
	var units []Unit
	for _, row := range data {
		u := Unit{}
		for i, v := range row {
			if v != "" {
				u[string(rune('A'+i))] = v
			}
		}
		units = append(units, u)
	}
	got, err := KrippendorffAlpha(units)
	if err != nil || math.Abs(got-0.743) > 0.0005 {
		t.Errorf("α = %v, %v; want 0.743", got, err)
	}
	// Two raters, no missing values: the 50-photo table of
	// TestCohenKappa, worked by hand.
	pairs := map[[2]string]int{{"confirm", "confirm"}: 20, {"correct", "correct"}: 15, {"confirm", "correct"}: 5, {"correct", "confirm"}: 10}
	units = nil
	for p, n := range pairs {
		for range n {
			units = append(units, Unit{"A": p[0], "B": p[1]})
		}
	}
	// Coincidences: o(confirm,correct) = o(correct,confirm) = 15, n = 100,
	// n_confirm = 55, n_correct = 45; α = 1 − (n−1)·Do/De =
	// 1 − 99·30/(2·55·45) = 1 − 2970/4950 = 0.4.
	if got, err := KrippendorffAlpha(units); err != nil || math.Abs(got-0.4) > 1e-9 {
		t.Errorf("two raters: α = %v, %v; want 0.4", got, err)
	}
	if _, err := KrippendorffAlpha([]Unit{{"A": "1"}, {"B": "2"}}); !errors.Is(err, ErrTooFew) {
		t.Errorf("no unit rated twice: %v, want ErrTooFew", err)
	}
}

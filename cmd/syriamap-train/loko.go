package main

import (
	"cmp"
	"fmt"
	"io"
	"slices"

	"github.com/syriamap/syriamap/internal/geoparse/evalset"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
)

// The cross-validation by source page scores the model on captions it
// was not fitted on, but of the kinds it was: a model fitted on towns,
// cities and quarters is scored on towns, cities and quarters. The
// captions the project meets next hold kinds the fit barely saw
// (villages, crossings), so leaveOneKindOut scores each kind of place
// with no caption of that kind in the fit: how honest the confidence is
// on a kind it never met.

// realKind is a real caption's labelled kind of place; "none" for one
// that names none (the English labels write null).
func realKind(lc evalset.Caption) string {
	if lc.PlaceKind == nil || *lc.PlaceKind == "" {
		return "none"
	}
	return *lc.PlaceKind
}

// writtenKind is the kind of place a written caption expects, in the
// real labels' terms: its place's kind as the gazetteer gives the most
// prominent place of its name, "outside-syria" for a place abroad, and
// "none" for no place.
func writtenKind(lc evalset.Caption, g *gazetteer.Gazetteer) string {
	switch {
	case lc.Place == nil || *lc.Place == "":
		return "none"
	case lc.Country != "" && lc.Country != "SY":
		return "outside-syria"
	}
	ps := g.Lookup(*lc.Place)
	if len(ps) == 0 {
		return "unknown"
	}
	switch p := ps[0]; {
	case p.Country != "SY":
		return "outside-syria"
	case p.Kind == gazetteer.Landmark:
		return string(gazetteer.Neighbourhood)
	case p.Kind == gazetteer.District || p.Kind == gazetteer.Subdistrict:
		return string(gazetteer.Region)
	default:
		return string(p.Kind)
	}
}

// leaveOneKindOut prints, for each labelled kind of place, how the
// confidence does on its real captions when none of that kind (real or
// written) was in the fit: each kind and fold scored by a model fitted on
// the other four folds without the kind. The misses in the least
// confident fifth are of each language's captions ranked together, each
// scored without its own kind; "in fold" is the same kind's answers at
// 0.8 or more in the ordinary cross-validation, for comparison.
func (d *dataset) leaveOneKindOut(w io.Writer) {
	var kinds []string
	n := map[string]int{}
	for _, k := range d.kindOf {
		if n[k] == 0 {
			kinds = append(kinds, k)
		}
		n[k]++
	}
	slices.SortFunc(kinds, func(a, b string) int { return cmp.Or(cmp.Compare(n[b], n[a]), cmp.Compare(a, b)) })
	loko := make([]float64, len(d.examples))
	for _, kind := range kinds {
		for f := range d.o.folds {
			m := d.fit(func(e example) bool { return e.kind != kind && e.fold != f })
			for i, e := range d.examples {
				if e.real && e.kind == kind && e.fold == f {
					loko[i] = m.predict(e)
				}
			}
		}
	}
	cv := d.crossValidate()
	fmt.Fprintf(w, "Leave one kind out (%d folds by source page, each kind scored by a fit without it):\n", d.o.folds)
	fmt.Fprintf(w, "  %-14s %4s %6s  %-18s %-18s %s\n", "kind", "n", "place", ">= 0.8 right", "(in fold)", "misses in the least confident fifth")
	fifth := d.lowFifth(loko)
	for _, kind := range kinds {
		of := func(k int) bool { return d.kindOf[k] == kind }
		row := d.scored(of, loko)
		right, caught, misses := 0, 0, 0
		j := 0
		for k := range d.answers {
			if !of(k) {
				continue
			}
			if !row[j].Right {
				misses++
				if fifth[k] {
					caught++
				}
			} else {
				right++
			}
			j++
		}
		fmt.Fprintf(w, "  %-14s %4d %6s  %-18s %-18s %d/%d\n", kind, len(row), pct(right, len(row)),
			high(evalset.Calibrate(row)), high(evalset.Calibrate(d.scored(of, cv))), caught, misses)
	}
	if d.o.highMisses {
		for i, e := range d.examples {
			if e.real && !e.right && loko[i] >= 0.8 {
				fmt.Fprintf(w, "    wrong at %.2f left out (%.2f in fold): %s, %s: %s\n", loko[i], cv[i], e.kind, e.shape, e.text)
			}
		}
	}
	d.report(w, "  English, each kind left out", d.english, loko)
	d.report(w, "  Arabic, each kind left out", d.arabic, loko)
}

// lowFifth reports, by real caption, whether its answer is in the least
// confident fifth of its language's answers under conf (ranked as
// evalset.Calibrate ranks them).
func (d *dataset) lowFifth(conf []float64) []bool {
	out := make([]bool, len(d.answers))
	for _, arabic := range []bool{false, true} {
		var ks []int
		for k := range d.answers {
			if d.arabicOf[k] == arabic {
				ks = append(ks, k)
			}
		}
		all := d.scored(func(int) bool { return true }, conf)
		rank := func(k int) float64 {
			if !all[k].Placed {
				return -1
			}
			return all[k].Confidence
		}
		slices.SortStableFunc(ks, func(a, b int) int {
			ra, rb := rank(a), rank(b)
			switch {
			case ra != rb:
				return cmp.Compare(ra, rb)
			case all[a].Right == all[b].Right:
				return 0
			case !all[a].Right:
				return -1
			}
			return 1
		})
		for i := range max(1, len(ks)/5) {
			if i < len(ks) {
				out[ks[i]] = true
			}
		}
	}
	return out
}

func high(c evalset.Calibration) string {
	return fmt.Sprintf("%d/%d %s", c.HighRight, c.High, pct(c.HighRight, c.High))
}

func pct(a, b int) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(a)/float64(b))
}

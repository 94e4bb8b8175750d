// Command syriamap-train fits the geocoder's confidence model
// (internal/geoparse/geocode/model.json) on labelled captions: the captions written
// for the tests (internal/geoparse/geocode/testdata) and the real ones of
// ../shared/eval. It geocodes each caption, describes each placed answer
// by the model's features, labels it right or wrong as score.py would, and
// fits a logistic regression with an L2 penalty by Newton's method, which
// is deterministic: the same captions give the same weights. `make train`
// runs it from the repository's root.
//
// It prints the calibration on the real captions twice: with the weights
// fitted on all of them (what TestDevSet shows) and out of fold, each
// fold scored by weights fitted without it, which is the honest estimate
// of how the confidence will hold on captions it never saw. The folds are
// evalset.Folds's: by source page, fixed, English and Arabic together;
// the figures are printed for each language and each fold, so that a rule
// written for a few captions shows as a fold that does not improve.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/syriamap/syriamap/geodata"
	"github.com/syriamap/syriamap/internal/geoparse/caption"
	"github.com/syriamap/syriamap/internal/geoparse/evalset"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/geoparse/geocode"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "syriamap-train:", err)
		os.Exit(1)
	}
}

// example is one placed answer: its features, whether it was right, its
// weight in the fit and whether it comes from a real caption.
type example struct {
	x       geocode.Features
	ceiling float64
	right   bool
	weight  float64
	real    bool
	fold    int
}

// realCaption is a real labelled caption with its language.
type realCaption struct {
	evalset.Caption
	arabic bool
}

// readCaptions reads the written test captions (captions-*.jsonl in
// written) and the real ones of shared/eval, English and Arabic
// (dev-captions*.jsonl, arabic-dev-captions*.jsonl).
func readCaptions(written, shared string) (reals []realCaption, writtenCaps []evalset.Caption, err error) {
	sets, _ := filepath.Glob(filepath.Join(written, "captions-*.jsonl"))
	rs, _ := filepath.Glob(filepath.Join(shared, "eval", "*dev-captions*.jsonl"))
	if len(rs) == 0 {
		return nil, nil, fmt.Errorf("no real captions in %s/eval (dev-captions*.jsonl)", shared)
	}
	for _, path := range append(sets, rs...) {
		caps, err := evalset.Read(path)
		if err != nil {
			return nil, nil, err
		}
		for _, lc := range caps {
			if lc.Real() {
				reals = append(reals, realCaption{lc, strings.HasPrefix(filepath.Base(path), "arabic")})
			} else {
				writtenCaps = append(writtenCaps, lc)
			}
		}
	}
	return reals, writtenCaps, nil
}

func run(args []string, stdout io.Writer) error {
	fl := flag.NewFlagSet("syriamap-train", flag.ContinueOnError)
	shared := fl.String("shared", "../shared", "the shared folder holding eval/dev-captions*.jsonl")
	written := fl.String("written", "internal/geoparse/geocode/testdata", "the folder of the written test captions")
	out := fl.String("out", "internal/geoparse/geocode/model.json", "where to write the model")
	l2 := fl.Float64("l2", 2, "the L2 penalty on every weight but the bias")
	writtenWeight := fl.Float64("written-weight", 0.25, "the weight of a written caption against a real one (1)")
	folds := fl.Int("folds", 5, "folds of the cross-validation over the real captions")
	quarterMisses := fl.Bool("quarter-misses", false, "list each quarter the real captions name and the geocoder does not read as that quarter")
	if err := fl.Parse(args); err != nil {
		return err
	}
	g, err := gazetteer.Load(geodata.Gazetteer)
	if err != nil {
		return err
	}
	gc := geocode.New(g)
	reals, writtenCaps, err := readCaptions(*written, *shared)
	if err != nil {
		return err
	}
	var examples []example
	var realAnswers []evalset.Answer // every real caption, placed or not
	var realIndex []int              // by real caption: its example, or -1
	plain := make([]evalset.Caption, len(reals))
	for i := range reals {
		plain[i] = reals[i].Caption
	}
	foldOf := evalset.Folds(plain, *folds)
	quarters := newQuarterTable(g)
	add := func(lc evalset.Caption, fold int) {
		// The geocode command joins a caption's lines; so does score.py.
		c := caption.Parse(strings.Join(strings.Fields(lc.Text), " "))
		ex := gc.Explain(c)
		right := evalset.PlaceVerdict(lc, ex.Result.Place, g) == evalset.OK
		if lc.Real() {
			quarters.add(lc, ex.Result.Place, right)
		}
		// A fallback is a coarser answer than the caption gives: the
		// written captions expect it, but score.py counts a quarter
		// answered by its city as wrong, and the confidence says so.
		if !lc.Real() && ex.Result.Precision == geocode.Fallback {
			right = false
		}
		idx := -1
		if ex.Result.Place != nil && ex.Chosen >= 0 {
			w := *writtenWeight
			if lc.Real() {
				w = 1
			}
			idx = len(examples)
			examples = append(examples, example{x: ex.Features, ceiling: ex.Ceiling, right: right, weight: w, real: lc.Real(), fold: fold})
		}
		if lc.Real() {
			realAnswers = append(realAnswers, evalset.Answer{Placed: ex.Result.Place != nil, Right: right})
			realIndex = append(realIndex, idx)
		}
	}
	for _, lc := range writtenCaps {
		add(lc, -1)
	}
	for i, rc := range reals {
		add(rc.Caption, foldOf[i])
	}
	w := fit(examples, *l2, func(example) bool { return true })
	// report prints the figures of the real captions keep selects, with
	// the confidences predict gives.
	report := func(name string, keep func(k int) bool, predict func(i int) float64) {
		var answers []evalset.Answer
		right := 0
		for k, i := range realIndex {
			if !keep(k) {
				continue
			}
			a := realAnswers[k]
			if i >= 0 {
				a.Confidence = math.Round(clamp(math.Min(predict(i), examples[i].ceiling))*100) / 100
			}
			if a.Right {
				right++
			}
			answers = append(answers, a)
		}
		fmt.Fprintf(stdout, "%s: place %d/%d (%.1f %%); %s\n", name, right, len(answers), 100*float64(right)/float64(max(1, len(answers))), evalset.Calibrate(answers))
	}
	english := func(k int) bool { return !reals[k].arabic }
	arabic := func(k int) bool { return reals[k].arabic }
	inSample := func(i int) float64 { return probability(w, examples[i].x) }
	report("English, fitted on all real captions", english, inSample)
	report("Arabic, fitted on all real captions", arabic, inSample)
	cv := make([]float64, len(examples))
	for f := range *folds {
		wf := fit(examples, *l2, func(e example) bool { return e.fold != f })
		for i, e := range examples {
			if e.real && e.fold == f {
				cv[i] = probability(wf, e.x)
			}
		}
	}
	outOfFold := func(i int) float64 { return cv[i] }
	report(fmt.Sprintf("English, out of fold (%d folds by source page)", *folds), english, outOfFold)
	report(fmt.Sprintf("Arabic, out of fold (%d folds by source page)", *folds), arabic, outOfFold)
	for f := range *folds {
		report(fmt.Sprintf("  fold %d, English", f+1), func(k int) bool { return foldOf[k] == f && english(k) }, outOfFold)
		report(fmt.Sprintf("  fold %d, Arabic ", f+1), func(k int) bool { return foldOf[k] == f && arabic(k) }, outOfFold)
	}
	quarters.print(stdout, *quarterMisses)
	nReal, nWritten := 0, 0
	for _, e := range examples {
		if e.real {
			nReal++
		} else {
			nWritten++
		}
	}
	m := geocode.Model{Features: geocode.FeatureNames[:], Weights: w, L2: *l2,
		FittedOn: fmt.Sprintf("%d placed answers: %d to real captions of %s/eval, %d to written ones (weight %g)", nReal+nWritten, nReal, filepath.Base(*shared), nWritten, *writtenWeight)}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	for i, name := range geocode.FeatureNames {
		fmt.Fprintf(stdout, "  %-28s %+7.3f\n", name, w[i])
	}
	return os.WriteFile(*out, append(data, '\n'), 0o644)
}

func clamp(p float64) float64 { return math.Max(0.01, math.Min(0.99, p)) }

func probability(w []float64, x geocode.Features) float64 {
	z := 0.0
	for i := range w {
		z += w[i] * x[i]
	}
	return 1 / (1 + math.Exp(-z))
}

// fit fits the model to the examples use selects (see geocode.Fit).
func fit(examples []example, l2 float64, use func(example) bool) []float64 {
	var sel []geocode.Example
	for _, e := range examples {
		if use(e) {
			sel = append(sel, geocode.Example{X: e.x, Right: e.right, Weight: e.weight})
		}
	}
	return geocode.Fit(sel, l2, nil)
}

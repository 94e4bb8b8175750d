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
// written for a few captions shows as a fold that does not improve. Then
// it leaves each labelled kind of place out (loko.go): each kind scored,
// fold by fold, by weights fitted on the other folds without any caption
// of that kind — how honest the confidence is on a kind it never met.
//
// The model weighs how new an answer's shape is (geocode.Shape): each
// fit counts the shapes of the answers it is fitted on (saved in
// model.json), and an answer's shape features in the fit are from the
// counts of the answers outside its own fold, as a new caption's are from
// all of them.
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
	shape   geocode.Shape
	ceiling float64
	right   bool
	weight  float64
	real    bool
	arabic  bool
	// fold is a real caption's fold, -1 for a written one; group is the
	// fold the shape counts of its features leave out (a written
	// caption's is dealt round the folds).
	fold, group int
	// kind is the labelled kind of place (place_kind; a written
	// caption's is its expected place's, see writtenKind).
	kind   string
	text   string // the caption, for --high-misses
	answer string // the place answered, for --high-misses
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

// options are the command's flags.
type options struct {
	shared, written, out string
	l2, writtenWeight    float64
	folds                int
	quarterMisses        bool
	// noShape leaves the out-of-distribution features out (all zero), to
	// compare the model with and without them.
	noShape bool
	// highMisses lists the wrong answers left out at 0.8 or more.
	highMisses bool
}

func run(args []string, stdout io.Writer) error {
	fl := flag.NewFlagSet("syriamap-train", flag.ContinueOnError)
	var o options
	fl.StringVar(&o.shared, "shared", "../shared", "the shared folder holding eval/dev-captions*.jsonl")
	fl.StringVar(&o.written, "written", "internal/geoparse/geocode/testdata", "the folder of the written test captions")
	fl.StringVar(&o.out, "out", "internal/geoparse/geocode/model.json", "where to write the model")
	fl.Float64Var(&o.l2, "l2", 1, "the L2 penalty on every weight but the bias")
	fl.Float64Var(&o.writtenWeight, "written-weight", 0.25, "the weight of a written caption against a real one (1)")
	fl.IntVar(&o.folds, "folds", 5, "folds of the cross-validation over the real captions")
	fl.BoolVar(&o.quarterMisses, "quarter-misses", false, "list each quarter the real captions name and the geocoder does not read as that quarter")
	fl.BoolVar(&o.highMisses, "high-misses", false, "list the real captions answered wrong at 0.8 or more out of fold, and when their kind was left out of the fit")
	fl.BoolVar(&o.noShape, "no-shape", false, "fit without the features of how new an answer's shape is (they stay zero), for comparison")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if o.folds < 2 {
		return fmt.Errorf("--folds %d: the cross-validation needs at least 2", o.folds)
	}
	g, err := gazetteer.Load(geodata.Gazetteer)
	if err != nil {
		return err
	}
	reals, writtenCaps, err := readCaptions(o.written, o.shared)
	if err != nil {
		return err
	}
	d := newDataset(g, o)
	for i, lc := range writtenCaps {
		d.add(lc, false, -1, i%o.folds)
	}
	plain := make([]evalset.Caption, len(reals))
	for i := range reals {
		plain[i] = reals[i].Caption
	}
	for i, f := range evalset.Folds(plain, o.folds) {
		d.add(reals[i].Caption, reals[i].arabic, f, f)
	}
	final := d.fit(func(example) bool { return true })
	inSample := make([]float64, len(d.examples))
	for i, e := range d.examples {
		inSample[i] = final.predict(e)
	}
	d.report(stdout, "English, fitted on all real captions", d.english, inSample)
	d.report(stdout, "Arabic, fitted on all real captions", d.arabic, inSample)
	cv := d.crossValidate()
	d.report(stdout, fmt.Sprintf("English, out of fold (%d folds by source page)", o.folds), d.english, cv)
	d.report(stdout, fmt.Sprintf("Arabic, out of fold (%d folds by source page)", o.folds), d.arabic, cv)
	if o.highMisses {
		for i, e := range d.examples {
			if e.real && !e.right && clamp(math.Min(cv[i], e.ceiling)) >= 0.795 {
				fmt.Fprintf(stdout, "    wrong at %.2f out of fold: %s, %s → %s: %s\n", cv[i], e.kind, e.shape, e.answer, strings.Join(strings.Fields(e.text), " "))
			}
		}
	}
	for f := range o.folds {
		d.report(stdout, fmt.Sprintf("  fold %d, English", f+1), func(k int) bool { return d.foldOf[k] == f && d.english(k) }, cv)
		d.report(stdout, fmt.Sprintf("  fold %d, Arabic ", f+1), func(k int) bool { return d.foldOf[k] == f && d.arabic(k) }, cv)
	}
	d.leaveOneKindOut(stdout)
	d.quarters.print(stdout, o.quarterMisses)
	nReal, nWritten := 0, 0
	for _, e := range d.examples {
		if e.real {
			nReal++
		} else {
			nWritten++
		}
	}
	m := geocode.Model{Features: geocode.FeatureNames[:], Weights: final.w, L2: o.l2, Shapes: final.shapes,
		FittedOn: fmt.Sprintf("%d placed answers: %d to real captions of %s/eval, %d to written ones (weight %g)", nReal+nWritten, nReal, filepath.Base(o.shared), nWritten, o.writtenWeight)}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	for i, name := range geocode.FeatureNames {
		fmt.Fprintf(stdout, "  %-28s %+7.3f\n", name, final.w[i])
	}
	return os.WriteFile(o.out, append(data, '\n'), 0o644)
}

func clamp(p float64) float64 { return math.Max(0.01, math.Min(0.99, p)) }

func probability(w []float64, x geocode.Features) float64 {
	z := 0.0
	for i := range w {
		z += w[i] * x[i]
	}
	return 1 / (1 + math.Exp(-z))
}

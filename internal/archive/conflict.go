package archive

import (
	"context"
	"os"
	"path/filepath"
	"regexp"

	"github.com/syriamap/syriamap/internal/conflict"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/store"
)

// versionInName finds a dataset's version in a file's name
// ("ucdp-ged-syria-19.1.csv", "ged191.csv" is not one).
var versionInName = regexp.MustCompile(`\d+\.\d+`)

// ReadEventFiles reads conflict-event exports (UCDP GED, ACLED) into one
// set a dataset: version is the datasets' version, or "" to read it from
// each file's name. Every file is read before anything is written: one bad
// row anywhere, and nothing is.
func ReadEventFiles(paths []string, version string) ([]store.EventSet, error) {
	var sets []store.EventSet
	byDataset := map[string]int{}
	for _, path := range paths {
		v := version
		if v == "" {
			v = versionInName.FindString(filepath.Base(path))
		}
		if v == "" {
			return nil, photo.Errorf(photo.EInvalid, "%s: no version in its name: say the dataset's version with --version", path)
		}
		f, err := os.Open(path)
		if err != nil {
			return nil, photo.Errorf(photo.EInvalid, "%s: cannot read it: %v", path, err)
		}
		evs, err := conflict.Read(f, path, v)
		f.Close()
		if err != nil {
			return nil, err
		}
		if len(evs) == 0 {
			continue
		}
		d := evs[0].Dataset
		i, ok := byDataset[d]
		if !ok {
			i, byDataset[d] = len(sets), len(sets)
			sets = append(sets, store.EventSet{Dataset: d, Version: v})
		}
		if sets[i].Version != v {
			return nil, photo.Errorf(photo.EInvalid, "%s: %s version %s, but another file is version %s: import one version of a dataset at a time", path, d, v, sets[i].Version)
		}
		sets[i].Events = append(sets[i].Events, evs...)
	}
	return sets, nil
}

// ImportEvents imports the sets (ReadEventFiles) in one transaction, as
// actor.
func (a *Archive) ImportEvents(ctx context.Context, sets []store.EventSet, actor string) ([]store.EventsSummary, error) {
	return a.db.ImportEventSets(ctx, sets, actor)
}

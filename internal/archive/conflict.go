package archive

import (
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"regexp"

	"github.com/paulmach/orb"

	"github.com/syriamap/syriamap/geodata"
	"github.com/syriamap/syriamap/internal/conflict"
	"github.com/syriamap/syriamap/internal/geoparse/caption"
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

// ImportBundledEvents imports the UCDP GED events of Syria bundled with
// syriamap (geodata.EventsGED), as an archive's first start does.
func (a *Archive) ImportBundledEvents(ctx context.Context) (store.EventsSummary, int, error) {
	zr, err := gzip.NewReader(bytes.NewReader(geodata.EventsGED))
	if err != nil {
		return store.EventsSummary{}, 0, err
	}
	evs, err := conflict.Read(zr, "geodata/events/ucdp-ged-syria-19.1.csv", geodata.EventsGEDVersion)
	if err != nil {
		return store.EventsSummary{}, 0, err
	}
	sum, err := a.db.ImportEvents(ctx, conflict.GED, geodata.EventsGEDVersion, evs, "syriamap (bundled events)")
	return sum, len(evs), err
}

// EventDatasets lists the datasets and versions of the archive's events.
func (a *Archive) EventDatasets(ctx context.Context) ([]conflict.EventsHeld, error) {
	return a.db.EventDatasets(ctx)
}

// candidatesOf are the events photo p may document, best first (see
// conflict.Rank), as ctx's viewer may see the events.
func (a *Archive) candidatesOf(ctx context.Context, p *photo.Photo) ([]conflict.Candidate, error) {
	s := SightingOf(p)
	if !s.Located || s.From == 0 {
		return []conflict.Candidate{}, nil
	}
	from, to := conflict.Window(s)
	events, err := a.db.EventsMeeting(ctx, from, to)
	if err != nil {
		return nil, err
	}
	out := conflict.Rank(s, events)
	if out == nil {
		out = []conflict.Candidate{}
	}
	return out, nil
}

// SightingOf is what photo p says of where and when it was taken, as the
// linker reads it.
func SightingOf(p *photo.Photo) conflict.Sighting {
	from, to := p.Date.Span()
	return conflict.Sighting{Point: orb.Point{p.Place.Lon, p.Place.Lat}, Located: p.Place.Located, PlaceKind: p.Place.Kind,
		Fallback: p.Place.Precision == "fallback", Governorate: p.Place.Governorate, From: from, To: to,
		Lag: photo.DateLagDays(p.DateSource), Caption: p.Caption, Sentences: caption.Sentences(p.Caption)}
}

// sightingOfFeature is SightingOf for a photo as lists read it.
func sightingOfFeature(f *photo.Feature) conflict.Sighting {
	from, to := f.Date.Span()
	return conflict.Sighting{Point: orb.Point{f.Lon, f.Lat}, Located: f.Located, PlaceKind: f.PlaceKind,
		Fallback: f.Precision == "fallback", Governorate: f.Governorate, From: from, To: to,
		Lag: photo.DateLagDays(f.DateSource), Caption: f.Caption, Sentences: caption.Sentences(f.Caption)}
}

// SuggestEvents calls fn with each photo the filter selects and its
// candidates, best first, as ctx's viewer may see both: every event is
// read once and filed in a conflict.Index, so that a million photos take
// minutes, not a query each.
func (a *Archive) SuggestEvents(ctx context.Context, f photo.Filter, fn func(id string, cands []conflict.Candidate) error) error {
	events, err := a.db.AllEvents(ctx)
	if err != nil {
		return err
	}
	ix := conflict.NewIndex(events)
	return a.db.EachFeature(ctx, f, func(ft *photo.Feature) error {
		return fn(ft.ID, ix.Candidates(sightingOfFeature(ft)))
	})
}

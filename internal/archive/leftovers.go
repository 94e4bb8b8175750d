package archive

import (
	"context"
	"time"

	"github.com/syriamap/syriamap/internal/evidence/originals"
)

// Leftovers are the files of the folder store of originals that no
// finished import left: originals no photo names and half-written files,
// last changed before a moment (younger ones may be an import's under
// way).
type Leftovers struct {
	Orphans, Temps []originals.Leftover
}

// FindLeftovers lists the store's leftovers older than age; none for a
// store that is not a folder (an S3 bucket's own lifecycle rules keep it).
func (a *Archive) FindLeftovers(ctx context.Context, age time.Duration) (Leftovers, error) {
	var out Leftovers
	d, ok := a.Originals.(*originals.Dir)
	if !ok {
		return out, nil
	}
	files, err := a.db.Files(ctx)
	if err != nil {
		return out, err
	}
	named := make(map[string]bool, len(files))
	for _, f := range files {
		named[f.SHA256] = true
	}
	before := time.Now().Add(-age)
	err = d.Files(func(l originals.Leftover) error {
		switch {
		case !l.ModTime.Before(before):
		case l.Temp:
			out.Temps = append(out.Temps, l)
		case !named[l.Sum]:
			out.Orphans = append(out.Orphans, l)
		}
		return ctx.Err()
	})
	return out, err
}

// RemoveLeftovers removes what FindLeftovers found.
func (a *Archive) RemoveLeftovers(l Leftovers) error {
	d, ok := a.Originals.(*originals.Dir)
	if !ok {
		return nil
	}
	for _, f := range append(l.Orphans, l.Temps...) {
		if err := d.Remove(f); err != nil {
			return err
		}
	}
	return nil
}

package archive

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/syriamap/syriamap/geodata"
	"github.com/syriamap/syriamap/internal/evidence/imagemeta"
	"github.com/syriamap/syriamap/internal/ingest"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/store"
)

// Result is what importing one file did.
type Result struct {
	store.Summary
	// Read counts the records read from the file; when the file is
	// rejected they all are.
	Read int
	// Warnings are what the file's reader warned of (ingest.Record's
	// Warnings: "f.txt:2: two captions may be joined …"), in file order,
	// at most maxWarnings.
	Warnings []string
}

// maxWarnings bounds the warnings an import keeps of one file.
const maxWarnings = 100

// Progress is told how far an import has read a file, in bytes.
type Progress func(file string, done, total int64)

// batchSize is how many records are read and geocoded together, in
// parallel, while the store writes the batch before.
const batchSize = 2048

// ImportFile imports the file at path, read as format ("" to tell it by
// the extension), in one transaction. Its source name is the file's
// absolute path, so that importing it again from elsewhere is still the
// same file.
func (a *Archive) ImportFile(ctx context.Context, path, format string, progress Progress) (Result, error) {
	if format == "" {
		var err error
		if format, err = ingest.FormatOf(path); err != nil {
			return Result{}, err
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return Result{}, photo.Errorf(photo.EInvalid, "%s: cannot read it: %v", path, unwrapPath(err))
	}
	defer f.Close()
	name := path
	if abs, err := filepath.Abs(path); err == nil {
		name = abs
	}
	before, err := f.Stat()
	if err != nil {
		return Result{}, photo.Errorf(photo.EInvalid, "%s: cannot read it: %v", path, unwrapPath(err))
	}
	r := &countingReader{r: f}
	// A file that another program writes while it is read (a download
	// still coming in, an export being rewritten) would be imported cut
	// off: its size and time are checked once it has been read, before
	// anything is committed.
	unchanged := func() error {
		after, err := os.Stat(path)
		switch {
		case err != nil:
			return photo.Errorf(photo.EInvalid, "%s: it went away while it was read: %v", path, unwrapPath(err))
		case after.Size() != before.Size() || !after.ModTime().Equal(before.ModTime()) || r.n.Load() != before.Size():
			return photo.Errorf(photo.EInvalid, "%s: the file changed while it was read (%d bytes, then %d); import it again once it is complete",
				path, before.Size(), after.Size())
		}
		return nil
	}
	return a.importFrom(ctx, r, path, name, format, unchanged, func() {
		if progress != nil {
			progress(path, r.n.Load(), before.Size())
		}
	})
}

// ImportSamples imports the sample captions bundled with syriamap.
func (a *Archive) ImportSamples(ctx context.Context) (Result, error) {
	names, err := fs.Glob(geodata.Samples, "*.txt")
	if err != nil {
		return Result{}, err
	}
	sort.Strings(names)
	var total Result
	for _, n := range names {
		f, err := geodata.Samples.Open(n)
		if err != nil {
			return total, err
		}
		res, err := a.importFrom(ctx, f, "samples/"+n, "samples/"+n, ingest.Text, nil, nil)
		f.Close()
		if err != nil {
			return total, err
		}
		total.Summary.Add(res.Summary)
		total.Read += res.Read
	}
	return total, nil
}

// importFrom imports the records of r in one transaction. check, if not
// nil, is called once every record is written, just before the commit: an
// error from it rolls the file back.
func (a *Archive) importFrom(ctx context.Context, r io.Reader, shown, name, format string, check func() error, tick func()) (Result, error) {
	var read atomic.Int64
	var mu sync.Mutex // the records are read on build's goroutine
	var warnings []string
	src := func(yield func(ingest.Record, error) bool) {
		for rec, err := range ingest.Read(r, shown, format) {
			if len(rec.Warnings) > 0 {
				mu.Lock()
				warnings = append(warnings, rec.Warnings[:max(0, min(len(rec.Warnings), maxWarnings-len(warnings)))]...)
				mu.Unlock()
			}
			if !yield(rec, err) {
				return
			}
		}
	}
	recs := a.build(ctx, src, &read)
	if check != nil {
		recs = thenCheck(recs, check)
	}
	sum, err := a.db.ImportFile(ctx, name, recs, func(int) {
		if tick != nil {
			tick()
		}
	})
	mu.Lock()
	defer mu.Unlock()
	return Result{Summary: sum, Read: int(read.Load()), Warnings: slices.Clone(warnings)}, err
}

// thenCheck yields src's records and, once src is done without error,
// check's error if it has one.
func thenCheck[R any](src iter.Seq2[R, error], check func() error) iter.Seq2[R, error] {
	return func(yield func(R, error) bool) {
		for rec, err := range src {
			if !yield(rec, err) || err != nil {
				return
			}
		}
		if err := check(); err != nil {
			var zero R
			yield(zero, err)
		}
	}
}

// build reads and geocodes records in batches, the batches one after
// another and the records of a batch in parallel, while the caller writes
// the batch before; it yields them in file order.
func (a *Archive) build(ctx context.Context, src iter.Seq2[ingest.Record, error], read *atomic.Int64) iter.Seq2[store.Record, error] {
	return func(yield func(store.Record, error) bool) {
		type batch struct {
			recs []store.Record
			err  error
		}
		out := make(chan batch, 2)
		done := make(chan struct{})
		defer close(done)
		go func() {
			defer close(out)
			send := func(b batch) bool {
				select {
				case out <- b:
					return true
				case <-done:
					return false
				}
			}
			var pending []ingest.Record
			flush := func() bool {
				if len(pending) == 0 {
					return true
				}
				ok := send(batch{recs: a.buildBatch(ctx, pending)})
				pending = nil
				return ok
			}
			for rec, err := range src {
				if err != nil {
					flush()
					send(batch{err: err})
					return
				}
				read.Add(1)
				pending = append(pending, rec)
				if len(pending) == batchSize && !flush() {
					return
				}
				if ctx.Err() != nil {
					send(batch{err: ctx.Err()})
					return
				}
			}
			flush()
		}()
		for b := range out {
			for _, r := range b.recs {
				if !yield(r, nil) {
					return
				}
			}
			if b.err != nil {
				yield(store.Record{}, b.err)
				return
			}
		}
	}
}

// buildBatch builds the photos of recs on a.Workers goroutines, with the
// upload form's date of ctx, if any (WithFormDate).
func (a *Archive) buildBatch(ctx context.Context, recs []ingest.Record) []store.Record {
	form, _ := formDate(ctx)
	out := make([]store.Record, len(recs))
	workers := max(1, a.Workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < len(recs); i += workers {
				rec := recs[i]
				out[i] = store.Record{Photo: a.buildRecord(rec, form), Line: rec.Line, Ref: rec.Ref, Label: rec.Label}
			}
		}(w)
	}
	wg.Wait()
	return out
}

type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// unwrapPath drops the path from an *fs.PathError, which the caller names
// itself.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Regeocode runs the geocoder again over every photo, after a gazetteer or
// geocoder change. Corrected photos keep their place. It returns how many
// photos changed their geocoded place and how many moved on the map.
func (a *Archive) Regeocode(ctx context.Context, progress func(done, total int)) (changed, moved int, err error) {
	changed, moved, err = a.db.Regeocode(ctx, func(text string) photo.Place {
		return a.Build(ingest.Record{Caption: text}).Geocoded
	}, progress)
	if err != nil {
		return changed, moved, err
	}
	// A photo's agreement with its image file names the caption's place:
	// it is checked again against the new one.
	return changed, moved, a.recheckFiles(ctx)
}

// recheckFiles computes again how each photo with an image file agrees
// with its file's metadata (kept as read at import).
func (a *Archive) recheckFiles(ctx context.Context) error {
	ids, err := a.db.PhotosWithFiles(ctx)
	if err != nil {
		return err
	}
	checks := make(map[string]photo.Check, len(ids))
	for _, id := range ids {
		p, err := a.db.Photo(ownRead(ctx), id)
		if err != nil {
			return err
		}
		if p.File == nil {
			continue
		}
		if checks[id], err = a.FileCheck(p); err != nil {
			return err
		}
	}
	_, err = a.db.SetChecks(ctx, checks)
	return err
}

// FileCheck checks photo p against its image file's metadata as stored
// at import, again: the Check with its Findings, which a page says in its
// reader's language. A photo without a file has nothing to check.
func (a *Archive) FileCheck(p *photo.Photo) (photo.Check, error) {
	if p.File == nil {
		return photo.Check{}, nil
	}
	var md imagemeta.Metadata
	if err := json.Unmarshal([]byte(p.File.Meta), &md); err != nil {
		return photo.Check{}, fmt.Errorf("photo %s: the image file's metadata: %w", p.ID, err)
	}
	return a.check(p, md), nil
}

// SetPlace records a person's correction of photo id: to the gazetteer
// place placeID, or, when placeID is "", to the bare point [lon, lat].
func (a *Archive) SetPlace(ctx context.Context, id, placeID string, point *[2]float64, note string) error {
	pl, err := a.PlaceOf(placeID, point)
	if err != nil {
		return err
	}
	return a.db.SetCorrection(ctx, id, photo.Correction{PlaceID: pl.ID, Lon: pl.Lon, Lat: pl.Lat, Note: strings.TrimSpace(note)}, pl)
}

// String summarises a result for people.
func (r Result) String() string {
	return fmt.Sprintf("%d added, %d updated, %d unchanged, %d unplaced", r.Added, r.Updated, r.Unchanged, r.Unplaced)
}

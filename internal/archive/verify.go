package archive

import (
	"context"
	"errors"
	"fmt"

	"github.com/syriamap/syriamap/internal/evidence/originals"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/store"
)

// VerifyReport is what a verification found: the originals re-hashed
// (a fixity check) and the custody chain walked.
type VerifyReport struct {
	Files, Bytes int64 // originals checked and their bytes
	Records      int64 // custody records checked
	Rows         int64 // photos' rows checked against their custody
	// Problems name each photo whose original is missing or changed,
	// and each break of the chain.
	Problems []Problem
}

// A Problem is one thing verify found wrong, with the photo it is of
// ("" for the archive).
type Problem struct {
	PhotoID, What string
}

// Verify re-hashes every stored original, re-checks the custody chain,
// checks each photo's row against its custody records (store.CheckRows)
// and, given a checkpoint kept elsewhere (since, or nil), that the chain
// still holds it; progress hears of each original (bytes done of bytes
// in all) and each stretch of the chain and the rows. The check is
// recorded in the chain (action "fixity", with what it found), so the
// archive remembers when its originals were last found whole.
func (a *Archive) Verify(ctx context.Context, since *photo.Checkpoint, progress func(what string, done, total int64)) (VerifyReport, error) {
	var r VerifyReport
	if a.Originals == nil {
		return r, errors.New("verify: the archive has no store of originals")
	}
	files, err := a.db.Files(ctx)
	if err != nil {
		return r, err
	}
	var total int64
	for _, f := range files {
		total += f.Size
	}
	for _, f := range files {
		if f.Problem != "" {
			r.Problems = append(r.Problems, Problem{f.PhotoID, f.Problem + ": the row was changed outside syriamap"})
			continue
		}
		n, err := originals.Check(ctx, a.Originals, f.SHA256)
		var mismatch *originals.MismatchError
		switch {
		case ctx.Err() != nil:
			return r, ctx.Err()
		case errors.Is(err, originals.ErrNotFound):
			r.Problems = append(r.Problems, Problem{f.PhotoID, fmt.Sprintf("its original (SHA-256 %s) is missing from %s", f.SHA256, a.Originals.Where())})
		case errors.As(err, &mismatch):
			r.Problems = append(r.Problems, Problem{f.PhotoID, fmt.Sprintf("its original changed at rest: it should hash to %s and hashes to %s", f.SHA256, mismatch.Got)})
		case err != nil:
			r.Problems = append(r.Problems, Problem{f.PhotoID, fmt.Sprintf("its original could not be read: %v", err)})
		default:
			if n != f.Size {
				r.Problems = append(r.Problems, Problem{f.PhotoID, fmt.Sprintf("its original is %d bytes, not %d", n, f.Size)})
			}
		}
		r.Files++
		r.Bytes += n
		if progress != nil {
			progress("originals", r.Bytes, total)
		}
	}
	var chain []store.ChainProblem
	r.Records, chain, err = a.db.VerifyCustody(ctx, func(done, total int64) {
		if progress != nil {
			progress("custody", done, total)
		}
	})
	if err != nil {
		return r, err
	}
	for _, c := range chain {
		what := fmt.Sprintf("custody record %d: %s", c.Seq, c.What)
		r.Problems = append(r.Problems, Problem{c.PhotoID, what})
	}
	if since != nil {
		lost, err := a.db.CheckSince(ctx, *since)
		if err != nil {
			return r, err
		}
		for _, c := range lost {
			r.Problems = append(r.Problems, Problem{"", "custody chain: " + c.What})
		}
	}
	var rows []store.ChainProblem
	r.Rows, rows, err = a.db.CheckRows(ctx, func(done, total int64) {
		if progress != nil {
			progress("rows", done, total)
		}
	})
	if err != nil {
		return r, err
	}
	for _, c := range rows {
		r.Problems = append(r.Problems, Problem{c.PhotoID, c.What})
	}
	failed := map[string]string{}
	for _, p := range r.Problems {
		failed[p.PhotoID] = p.What
	}
	detail := map[string]any{"originals": r.Files, "bytes": r.Bytes, "custody_records": r.Records, "store": a.Originals.Where(), "problems": failed}
	if !a.db.ReadOnly() {
		if err := a.db.AddCustody(ctx, "syriamap verify", "fixity", map[string]any{"": detail}); err != nil {
			return r, fmt.Errorf("recording the check: %w", err)
		}
	}
	return r, nil
}

// beginCustody gives each photo imported before the archive kept custody
// its first record, saying so: what the archive knows of it (its source
// and file) from then on is chained.
func (a *Archive) beginCustody(ctx context.Context) error {
	ids, err := a.db.PhotosWithoutCustody(ctx)
	if err != nil || len(ids) == 0 {
		return err
	}
	entries := make(map[string]any, len(ids))
	for _, id := range ids {
		entries[id] = map[string]any{"note": "in the archive before it kept custody records; what came before is in its history of changes"}
	}
	return a.db.AddCustody(ctx, "syriamap (upgrade)", "custody-begun", entries)
}

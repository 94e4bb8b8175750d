package archive

import (
	"bufio"
	"context"
	"fmt"
	"io"

	"github.com/syriamap/syriamap/internal/evidence/pdq"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/store"
)

// PDQMatch is a photo of the archive whose image is within
// pdq.MatchRadius of a hash of a partner's list.
type PDQMatch struct {
	PhotoID string
	// Listed is the list's hash, its label and its line.
	Listed   pdq.Listed
	Distance int // bits, 0–31
	// Quality is the photo's image's hash's.
	Quality int
	// Withheld: the photo is withheld from the public.
	Withheld bool
}

// PDQMatches is what MatchPDQ found, and what it left out.
type PDQMatches struct {
	Matches []PDQMatch
	// Compared is how many of the archive's hashes were compared with
	// how many of the list's.
	Compared, Listed int
	// LowQuality are the archive's hashes of quality ≤ pdq.LowQuality,
	// ListLowQuality the list's that it says are: too plain to match on,
	// and not compared (ThreatExchange's rule).
	LowQuality, ListLowQuality int
	// Unhashed are the images without a PDQ hash yet: `syriamap frames`
	// hashes them.
	Unhashed int
}

// MatchPDQ finds every photo whose image's PDQ hash is within
// pdq.MatchRadius of a hash of list (a partner archive's: pdq.ReadList),
// ordered by photo as imported, then by the list's line. A match is a
// pair: one photo's image against one listed hash, as they are (a
// mirrored or turned copy matches only when the list carries its
// variants, as pdq-photo-hasher --pdqdih writes them; the archive keeps
// its pictures' hashes as they are). Hashes of quality ≤ pdq.LowQuality,
// the archive's or the list's, are not compared.
//
// It is an editor's: ctx reads as an editor (photo.ViewerOf), whose read
// includes the photos withheld from the public, marked Withheld; any other
// read is refused (EForbidden).
func (a *Archive) MatchPDQ(ctx context.Context, list []pdq.Listed) (PDQMatches, error) {
	var r PDQMatches
	if !photo.ViewerOf(ctx).SeesWithheld() {
		return r, photo.Errorf(photo.EForbidden, "frames: matching a list of PDQ hashes is for editors")
	}
	ours, rows, err := a.pdqHashes(ctx, &r.LowQuality, &r.Unhashed)
	if err != nil {
		return r, err
	}
	var theirs []pdq.Hash256
	var listed []pdq.Listed
	for _, l := range list {
		if l.Quality >= 0 && l.Quality <= pdq.LowQuality {
			r.ListLowQuality++
			continue
		}
		theirs = append(theirs, l.Hash)
		listed = append(listed, l)
	}
	r.Compared, r.Listed = len(ours), len(theirs)
	for _, p := range pdq.Pairs(ours, theirs, pdq.MatchRadius) {
		row := rows[p.A]
		r.Matches = append(r.Matches, PDQMatch{PhotoID: row.PhotoID, Listed: listed[p.B], Distance: p.Distance, Quality: row.Quality, Withheld: row.Withheld})
	}
	return r, nil
}

// pdqHashes reads the PDQ hashes of the photos ctx's viewer may see, of
// quality above pdq.LowQuality, and the rows they are of; it counts the
// others in low and unhashed.
func (a *Archive) pdqHashes(ctx context.Context, low, unhashed *int) ([]pdq.Hash256, []store.PhotoPDQ, error) {
	var hashes []pdq.Hash256
	var rows []store.PhotoPDQ
	err := a.db.EachPhotoPDQ(ctx, func(row store.PhotoPDQ) error {
		switch {
		case row.PDQ == "":
			*unhashed++
			return nil
		case row.Quality <= pdq.LowQuality:
			*low++
			return nil
		}
		h, err := pdq.Parse(row.PDQ)
		if err != nil {
			return fmt.Errorf("frames: photo %s: the archive's PDQ hash: %w", row.PhotoID, err)
		}
		row.PDQ = "" // kept as h
		hashes, rows = append(hashes, h), append(rows, row)
		return nil
	})
	return hashes, rows, err
}

// PDQExport is what ExportPDQ wrote, and what it left out.
type PDQExport struct {
	Written int
	// Withheld is how many of those written are of photos withheld from
	// the public (with includeWithheld only).
	Withheld int
	// LowQuality are the hashes of quality ≤ pdq.LowQuality, left out;
	// Unhashed the images without a PDQ hash yet.
	LowQuality, Unhashed int
}

// ExportPDQ writes the archive's own list of PDQ hashes to w, as
// pdq-photo-hasher writes one and MatchPDQ (pdq.ReadList) reads it: one
// pdq.ListLine a hash, its quality, and the photo's id as the label (its
// page is /photos/ID), in the order the photos were imported. It lists
// the photos the public may see (photo.Public's read, the published
// site's), and the withheld ones too only when includeWithheld, and only
// for an editor's ctx (else EForbidden). Hashes of quality ≤
// pdq.LowQuality are left out: a partner would discard them.
func (a *Archive) ExportPDQ(ctx context.Context, w io.Writer, includeWithheld bool) (PDQExport, error) {
	var r PDQExport
	switch {
	case !includeWithheld:
		ctx = photo.WithViewer(ctx, photo.Public)
	case !photo.ViewerOf(ctx).SeesWithheld():
		return r, photo.Errorf(photo.EForbidden, "frames: only an editor may export the withheld photos' hashes")
	}
	hashes, rows, err := a.pdqHashes(ctx, &r.LowQuality, &r.Unhashed)
	if err != nil {
		return r, err
	}
	bw := bufio.NewWriter(w)
	for i, h := range hashes {
		if _, err := bw.WriteString(pdq.ListLine(h, rows[i].Quality, rows[i].PhotoID)); err != nil {
			return r, err
		}
		r.Written++
		if rows[i].Withheld {
			r.Withheld++
		}
	}
	return r, bw.Flush()
}

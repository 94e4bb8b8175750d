package archive

import (
	"context"
	"encoding/json"

	"github.com/syriamap/syriamap/internal/photo"
)

// CustodyFor is a photo's custody records as ctx's viewer may see them
// (photo.ViewerOf): an
// editor sees them all; a reader none that names or points to a withheld
// photo (a frame found again, "of" a withheld photo) or that was caused
// by one (a re-use flag taken off because the photo it pointed to was
// withheld), so that a public page never tells that another copy of a
// frame exists, when an editor hid it, or who.
func (a *Archive) CustodyFor(ctx context.Context, id string) ([]photo.Custody, error) {
	recs, err := a.db.CustodyOf(ctx, id)
	if err != nil || photo.ViewerOf(ctx).SeesWithheld() {
		return recs, err
	}
	ofs := make([]string, len(recs))
	var named []string
	for i, c := range recs {
		if c.Action != "reuse" {
			continue
		}
		var d struct {
			Of string `json:"of"`
		}
		json.Unmarshal(c.Detail, &d)
		if ofs[i] = d.Of; d.Of != "" {
			named = append(named, d.Of)
		}
	}
	withheld, err := a.db.WithheldAmong(ctx, named)
	if err != nil {
		return nil, err
	}
	out := make([]photo.Custody, 0, len(recs))
	hidden := false // the last re-use record was hidden: the one that clears it is too
	for i, c := range recs {
		if c.Action == "reuse" {
			if of := ofs[i]; withheld[of] || of == "" && hidden {
				hidden = true
				continue
			}
			hidden = false
		}
		if c.Action == "event-link" && !publicLink(c.Detail) {
			continue // ACLED's terms keep its events, and links to them, from readers
		}
		out = append(out, c)
	}
	return out, nil
}

// publicLink reports whether an "event-link" record's detail is of an
// event readers may be told of: a UCDP GED event.
func publicLink(detail []byte) bool {
	var d struct {
		Dataset string `json:"dataset"`
	}
	json.Unmarshal(detail, &d)
	return photo.Public.SeesDataset(d.Dataset)
}

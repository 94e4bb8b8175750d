package store

import (
	"context"
	"database/sql"
	"fmt"
)

// PhotoPDQ is the PDQ hash of a photo's image as the archive keeps it.
type PhotoPDQ struct {
	PhotoID string
	// PDQ is the hash, 64 hex digits; "" for an image not hashed yet (or
	// hashed before PDQ was), Quality 0 then.
	PDQ     string
	Quality int
	// Withheld: the photo is withheld from the public (only an editor's
	// read lists it).
	Withheld bool
}

// PhotoPDQs lists the PDQ hashes of the images of the photos ctx's viewer
// may see (photo.ViewerOf: the public's read leaves the withheld out), in
// the order the photos were imported, each hash of a photo once (a
// photo's image imported twice is one hash). A photo without an image
// file is not listed.
func (s *DB) PhotoPDQs(ctx context.Context) ([]PhotoPDQ, error) {
	shown := visible(ctx)
	if shown != "1" {
		shown = "p." + shown
	}
	rows, err := s.read.QueryContext(ctx, `SELECT p.id, fr.pdq, max(fr.pdq_quality), p.`+withheld+` FROM photos p
		JOIN files f ON f.photo = p.rowid LEFT JOIN frames fr ON fr.sha256 = f.sha256
		WHERE `+shown+` GROUP BY p.rowid, fr.pdq ORDER BY p.rowid, fr.pdq`)
	if err != nil {
		return nil, fmt.Errorf("store: listing the PDQ hashes: %w", err)
	}
	defer rows.Close()
	var out []PhotoPDQ
	for rows.Next() {
		var h PhotoPDQ
		var pdq sql.NullString
		var quality sql.NullInt64
		if err := rows.Scan(&h.PhotoID, &pdq, &quality, &h.Withheld); err != nil {
			return nil, fmt.Errorf("store: listing the PDQ hashes: %w", err)
		}
		h.PDQ, h.Quality = pdq.String, int(quality.Int64)
		out = append(out, h)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: listing the PDQ hashes: %w", err)
	}
	return out, nil
}

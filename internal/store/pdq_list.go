package store

import (
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"encoding/hex"
	"fmt"
	"slices"
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

// EachPhotoPDQ calls fn with the PDQ hash of each image of the photos
// ctx's viewer may see (photo.ViewerOf: the public's read leaves the
// withheld out), in the order the photos were imported, each hash of a
// photo once (a photo's picture imported twice is one hash), and stops at
// fn's first error, which it returns. A photo without an image file is
// not listed. It reads one moment of the archive.
func (s *DB) EachPhotoPDQ(ctx context.Context, fn func(PhotoPDQ) error) error {
	shown := visible(ctx)
	if shown != "TRUE" {
		shown = "p." + shown
	}
	tx, err := s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("store: listing the PDQ hashes: %w", err)
	}
	defer tx.Rollback()
	// Three tables read whole, each in its stored order, and joined here:
	// at a million photos the join in SQL, a lookup of a 64-digit key and
	// of a photo's files for each, took 10 s; the three reads, 1.6 s.
	files, err := pdqFiles(ctx, tx)
	if err != nil {
		return fmt.Errorf("store: listing the PDQ hashes: %w", err)
	}
	rows, err := tx.QueryContext(ctx, `SELECT rowid, id, `+withheld+` FROM photos p WHERE `+shown+` ORDER BY rowid`)
	if err != nil {
		return fmt.Errorf("store: listing the PDQ hashes: %w", err)
	}
	defer rows.Close()
	next := 0 // files[next] is the first file of a photo not read yet
	for rows.Next() {
		var h PhotoPDQ
		var rowid int64
		if err := rows.Scan(&rowid, &h.PhotoID, &h.Withheld); err != nil {
			return fmt.Errorf("store: listing the PDQ hashes: %w", err)
		}
		for next < len(files) && files[next].photo < rowid {
			next++
		}
		first := next
		for ; next < len(files) && files[next].photo == rowid; next++ {
			f := files[next]
			if next > first && f.hashed == files[next-1].hashed && f.pdq == files[next-1].pdq {
				continue // the same hash again
			}
			h.PDQ, h.Quality = "", 0
			if f.hashed {
				h.PDQ, h.Quality = hex.EncodeToString(f.pdq[:]), f.quality
			}
			if err := fn(h); err != nil {
				return err
			}
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: listing the PDQ hashes: %w", err)
	}
	return nil
}

// pdqFile is an image file's photo, and its PDQ hash when it has one.
type pdqFile struct {
	photo   int64
	pdq     [32]byte
	quality int
	hashed  bool
}

// pdqFiles reads every image file with its frame's PDQ hash, ordered by
// photo (rowid), then by hash, those without one first.
func pdqFiles(ctx context.Context, tx *sql.Tx) ([]pdqFile, error) {
	frames, err := pdqFrames(ctx, tx)
	if err != nil {
		return nil, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT photo, sha256 FROM files`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []pdqFile
	for rows.Next() {
		var f pdqFile
		var sum string
		if err := rows.Scan(&f.photo, &sum); err != nil {
			return nil, err
		}
		if key, ok := shaKey(sum); ok {
			if fr, ok := frames[key]; ok {
				f.pdq, f.quality, f.hashed = fr.pdq, fr.quality, true
			}
		}
		out = append(out, f)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b pdqFile) int {
		if c := cmp.Compare(a.photo, b.photo); c != 0 {
			return c
		}
		if a.hashed != b.hashed {
			if a.hashed {
				return 1
			}
			return -1
		}
		return bytes.Compare(a.pdq[:], b.pdq[:])
	})
	return out, nil
}

// pdqFrame is a frame's PDQ hash and quality, as pdqFrames holds it.
type pdqFrame struct {
	pdq     [32]byte
	quality int
}

// pdqFrames reads every frame that has a PDQ hash, by its image's
// SHA-256. A PDQ hash that is not 64 hex digits is an error: the archive
// wrote it.
func pdqFrames(ctx context.Context, tx *sql.Tx) (map[[32]byte]pdqFrame, error) {
	rows, err := tx.QueryContext(ctx, `SELECT sha256, pdq, pdq_quality FROM frames WHERE pdq IS NOT NULL`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[[32]byte]pdqFrame{}
	for rows.Next() {
		var sum, pdq string
		var f pdqFrame
		if err := rows.Scan(&sum, &pdq, &f.quality); err != nil {
			return nil, err
		}
		key, ok := shaKey(sum)
		if !ok {
			continue // no image's: every file's SHA-256 is 64 hex digits
		}
		if n, err := hex.Decode(f.pdq[:], []byte(pdq)); err != nil || n != len(f.pdq) || len(pdq) != 2*len(f.pdq) {
			return nil, fmt.Errorf("the frame of image %s has PDQ hash %.70q", sum, pdq)
		}
		out[key] = f
	}
	return out, rows.Err()
}

// shaKey is a SHA-256 written in hex as 32 bytes.
func shaKey(sum string) ([32]byte, bool) {
	var k [32]byte
	n, err := hex.Decode(k[:], []byte(sum))
	return k, err == nil && n == len(k) && len(sum) == 2*len(k)
}

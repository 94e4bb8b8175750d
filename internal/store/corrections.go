package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/syriamap/syriamap/internal/photo"
)

// SetCorrection records a person's decision about where photo id was taken
// and shows the photo there: place describes the point (a gazetteer place,
// or a bare point with an empty ID). It replaces an earlier correction.
// The command line's corrections are by "command line" unless c names an
// author.
func (s *DB) SetCorrection(ctx context.Context, id string, c photo.Correction, place photo.Place) error {
	place.ID, place.Lon, place.Lat, place.Located = c.PlaceID, c.Lon, c.Lat, true
	author := c.Author
	if author == "" {
		author = "command line"
	}
	_, err := s.Apply(ctx, []string{id}, Change{Author: author, Note: c.Note, Place: &place})
	return err
}

// regeocodeBatch is how many photos one transaction of Regeocode updates.
const regeocodeBatch = 5000

// Regeocode runs geocode over every photo's caption and stores the new
// choices; corrected photos keep their place. It returns how many photos
// changed their geocoded place and how many of those moved on the map.
func (s *DB) Regeocode(ctx context.Context, geocode func(caption string) photo.Place, progress func(done, total int)) (changed, moved int, err error) {
	total, err := s.Count(ctx)
	if err != nil {
		return 0, 0, err
	}
	var last int64
	done := 0
	for {
		n, c, m, next, err := s.regeocodeFrom(ctx, last, geocode)
		if err != nil {
			return changed, moved, err
		}
		changed, moved, done, last = changed+c, moved+m, done+n, next
		if progress != nil {
			progress(done, total)
		}
		if n < regeocodeBatch {
			return changed, moved, nil
		}
	}
}

func (s *DB) regeocodeFrom(ctx context.Context, after int64, geocode func(string) photo.Place) (n, changed, moved int, last int64, err error) {
	tx, err := s.begin(ctx)
	if err != nil {
		return 0, 0, 0, 0, err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `SELECT p.rowid, p.caption, p.geo_digest, p.lon, p.lat, c.photo IS NOT NULL, (p.given & ?) != 0
		FROM photos p LEFT JOIN corrections c ON c.photo = p.rowid WHERE p.rowid > ? ORDER BY p.rowid LIMIT ?`,
		photo.GivenPoint, after, regeocodeBatch)
	if err != nil {
		return 0, 0, 0, 0, fmt.Errorf("store: regeocode: %w", err)
	}
	type change struct {
		rowid int64
		g     photo.Place
		// kept is true when the photo is not shown at the geocoder's
		// place: a correction, or a point its file gave.
		kept bool
	}
	var changes []change
	last = after
	for rows.Next() {
		var rowid int64
		var caption, oldDigest string
		var lon, lat sql.NullFloat64
		var corrected, given bool
		if err := rows.Scan(&rowid, &caption, &oldDigest, &lon, &lat, &corrected, &given); err != nil {
			rows.Close()
			return 0, 0, 0, 0, err
		}
		n++
		last = rowid
		if given {
			continue // the file's point stands
		}
		g := geocode(caption)
		gj, _ := json.Marshal(g)
		sum := sha256.Sum256(gj)
		if hex.EncodeToString(sum[:12]) == oldDigest {
			continue
		}
		changed++
		if !corrected && (g.Located != lon.Valid || g.Lon != lon.Float64 || g.Lat != lat.Float64) {
			moved++
		}
		changes = append(changes, change{rowid, g, corrected})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, 0, 0, 0, err
	}
	now := s.Now().UTC().Format(time.RFC3339)
	for _, ch := range changes {
		gj, _ := json.Marshal(ch.g)
		sum := sha256.Sum256(gj)
		digest := hex.EncodeToString(sum[:12])
		if ch.kept {
			_, err = tx.ExecContext(ctx, `UPDATE photos SET geocoded=?, geo_digest=?, updated=? WHERE rowid=?`, string(gj), digest, now, ch.rowid)
		} else {
			g := ch.g
			alts, _ := json.Marshal(nonNil(g.Alternatives))
			var lon, lat sql.NullFloat64
			if g.Located {
				lon, lat = sql.NullFloat64{Float64: g.Lon, Valid: true}, sql.NullFloat64{Float64: g.Lat, Valid: true}
			}
			_, err = tx.ExecContext(ctx, `UPDATE photos SET place_id=?, place_name=?, place_kind=?, governorate=?, gov_pcode=?,
				country=?, lon=?, lat=?, precision=?, confidence=?, mention=?, note=?, alternatives=?, geo_digest=?, updated=?
				WHERE rowid=?`, g.ID, g.Name, g.Kind, g.Governorate, g.GovPCode, g.Country, lon, lat, orNone(g.Precision),
				g.Confidence, g.Mention, g.Note, string(alts), digest, now, ch.rowid)
		}
		if err != nil {
			return 0, 0, 0, 0, fmt.Errorf("store: regeocode: %w", err)
		}
	}
	if len(changes) > 0 {
		if err := bump(ctx, tx); err != nil {
			return 0, 0, 0, 0, err
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, 0, 0, 0, s.writeErr(err)
	}
	return n, changed, moved, last, nil
}

func nonNil(a []photo.Alternative) []photo.Alternative {
	if a == nil {
		return []photo.Alternative{}
	}
	return a
}

package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"runtime"
	"sync"
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
	_, err := s.Apply(ctx, []string{id}, photo.Change{Author: author, Note: c.Note, Place: &place})
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

// regeocodeItem is one photo of a batch Regeocode re-geocodes.
type regeocodeItem struct {
	rowid               int64
	id, caption, digest string
	lon, lat            sql.NullFloat64
	corrected, given    bool
	g                   photo.Place
	newDigest           string
}

// regeocodeFrom re-geocodes the batch of photos after rowid after: their
// captions are read, geocoded on every core, and only then written, in a
// short transaction, so that writers wait for the writing alone.
func (s *DB) regeocodeFrom(ctx context.Context, after int64, geocode func(string) photo.Place) (n, changed, moved int, last int64, err error) {
	items, err := s.regeocodeBatchAfter(ctx, after)
	if err != nil || len(items) == 0 {
		return 0, 0, 0, after, err
	}
	geocodeAll(items, geocode)
	changed, moved, err = s.writeRegeocoded(ctx, items)
	if err != nil {
		return 0, 0, 0, 0, err
	}
	return len(items), changed, moved, items[len(items)-1].rowid, nil
}

// regeocodeBatchAfter reads the next batch of photos to re-geocode.
func (s *DB) regeocodeBatchAfter(ctx context.Context, after int64) ([]regeocodeItem, error) {
	var items []regeocodeItem
	err := s.reading(ctx, "", "reading captions to re-geocode", func(ctx context.Context) error {
		var err error
		items, err = s.regeocodeItems(ctx, `p.rowid > ? ORDER BY p.rowid LIMIT ?`, after, regeocodeBatch)
		return err
	})
	return items, err
}

// geocodeAll geocodes the items' captions on every core (the geocoder is
// most of the work), but those whose file gave a point, which stands.
func geocodeAll(items []regeocodeItem, geocode func(string) photo.Place) {
	var wg sync.WaitGroup
	workers := max(1, runtime.GOMAXPROCS(0))
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(items); i += workers {
				if it := &items[i]; !it.given {
					it.g = geocode(it.caption)
					_, it.newDigest, _ = geocodedJSON(it.g)
				}
			}
		}()
	}
	wg.Wait()
}

// writeRegeocoded writes the items whose geocoding changed, in one
// transaction, and counts them and those that moved on the map. The
// geocoder's own choice is kept for every photo; the place shown changes
// only where no person corrected it and no file gave a point — as of the
// write, which checks again.
func (s *DB) writeRegeocoded(ctx context.Context, items []regeocodeItem) (changed, moved int, err error) {
	tx, err := s.begin(ctx)
	if err != nil {
		return 0, 0, err
	}
	defer tx.Rollback()
	custody, err := openChain(ctx, tx)
	if err != nil {
		return 0, 0, err
	}
	defer custody.stmt.Close()
	at := s.Now()
	now := at.UTC().Format(time.RFC3339)
	for _, it := range items {
		if it.given || it.newDigest == it.digest {
			continue
		}
		changed++
		// The geocoder's new answer is a custody record, as an import's
		// is, so that verify can tell it from an edit of the row.
		if err := custody.add(ctx, it.id, at, s.actor(ctx), "regeocode", map[string]any{"placement": geocoderState(it.g, it.newDigest)}); err != nil {
			return 0, 0, err
		}
		if !it.corrected && (it.g.Located != it.lon.Valid || it.g.Lon != it.lon.Float64 || it.g.Lat != it.lat.Float64) {
			moved++
		}
		gj, _, err := geocodedJSON(it.g)
		if err != nil {
			return 0, 0, err
		}
		if _, err = tx.ExecContext(ctx, `UPDATE photos SET geocoded=?, geo_digest=?, updated=? WHERE rowid=?`,
			gj, it.newDigest, now, it.rowid); err != nil {
			return 0, 0, fmt.Errorf("store: regeocode: %w", err)
		}
		if it.corrected {
			continue
		}
		args, err := placeArgs(it.g, s.mentionKey)
		if err != nil {
			return 0, 0, err
		}
		_, err = tx.ExecContext(ctx, `UPDATE photos SET `+placeSet+`, geocoded=''
			WHERE rowid=? AND (given & ?) = 0 AND NOT EXISTS (SELECT 1 FROM corrections WHERE photo = ?)`,
			append(args, it.rowid, photo.GivenPoint, it.rowid)...)
		if err != nil {
			return 0, 0, fmt.Errorf("store: regeocode: %w", err)
		}
	}
	if changed == 0 {
		if err := s.end(ctx, tx, changedNothing); err != nil {
			return 0, 0, s.writeErr(err)
		}
		return 0, 0, nil
	}
	if err := s.commit(ctx, tx, custody, true); err != nil {
		return 0, 0, err
	}
	return changed, moved, nil
}

// CorrectionRow is one photo's decisions, as EachCorrection reads them.
type CorrectionRow struct {
	PhotoID, Caption string
	// Corrected: a place (PlaceID) or point (Lon, Lat); Confirmed: the
	// geocoder's place is right. Neither when only the date or credit
	// was fixed.
	Corrected, Confirmed bool
	PlaceID              string
	Lon, Lat             float64
	// Date, Photographer and Agency are the fixed values, nil when not
	// fixed.
	Date                 *photo.Date
	Photographer, Agency *string
	Author, At, Note     string
}

// EachCorrection calls fn for each photo a person corrected, confirmed or
// fixed, in import order.
func (s *DB) EachCorrection(ctx context.Context, fn func(CorrectionRow) error) error {
	return s.reading(ctx, "", "reading the corrections", func(ctx context.Context) error {
		rows, err := s.read.QueryContext(ctx, `SELECT p.id, p.caption, c.kind, c.place_id, c.lon, c.lat, c.author, c.note, c.created,
			f.date_from, f.date_to, f.date_precision, f.photographer, f.agency, f.author, f.note, f.created
			FROM photos p LEFT JOIN corrections c ON c.photo = p.rowid LEFT JOIN fixes f ON f.photo = p.rowid
			WHERE c.photo IS NOT NULL OR f.photo IS NOT NULL ORDER BY p.rowid`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var r CorrectionRow
			var kind, placeID, cAuthor, cNote, cAt, prec, ph, ag, fAuthor, fNote, fAt sql.NullString
			var lon, lat sql.NullFloat64
			var from, to sql.NullInt64
			if err := rows.Scan(&r.PhotoID, &r.Caption, &kind, &placeID, &lon, &lat, &cAuthor, &cNote, &cAt,
				&from, &to, &prec, &ph, &ag, &fAuthor, &fNote, &fAt); err != nil {
				return err
			}
			if kind.Valid {
				r.Confirmed, r.Corrected = kind.String == "confirm", kind.String != "confirm"
				r.PlaceID, r.Lon, r.Lat = placeID.String, lon.Float64, lat.Float64
				r.Author, r.Note, r.At = cAuthor.String, cNote.String, cAt.String
			}
			if fAuthor.Valid {
				if prec.Valid {
					d := photo.DateFromSpan(int(from.Int64), int(to.Int64), prec.String)
					r.Date = &d
				}
				if ph.Valid {
					r.Photographer = &ph.String
				}
				if ag.Valid {
					r.Agency = &ag.String
				}
				if !kind.Valid || fAt.String > r.At {
					r.Author, r.Note, r.At = fAuthor.String, fNote.String, fAt.String
				}
			}
			if err := fn(r); err != nil {
				return err
			}
		}
		return rows.Err()
	})
}

// RegeocodePhotos re-geocodes the photos ids (a place they were at was
// removed, moved or brought back), as Regeocode does the whole archive.
func (s *DB) RegeocodePhotos(ctx context.Context, ids []string, geocode func(caption string) photo.Place) (changed, moved int, err error) {
	for start := 0; start < len(ids); start += regeocodeBatch {
		batch := ids[start:min(len(ids), start+regeocodeBatch)]
		list, _ := json.Marshal(batch)
		var items []regeocodeItem
		err := s.reading(ctx, "", "reading captions to re-geocode", func(ctx context.Context) error {
			var err error
			items, err = s.regeocodeItems(ctx, `p.id IN (SELECT value FROM json_each(?)) ORDER BY p.rowid`, string(list))
			return err
		})
		if err != nil {
			return changed, moved, err
		}
		geocodeAll(items, geocode)
		c, m, err := s.writeRegeocoded(ctx, items)
		if err != nil {
			return changed, moved, err
		}
		changed, moved = changed+c, moved+m
	}
	return changed, moved, nil
}

// regeocodeItems reads the photos to re-geocode that the condition (and
// order) where selects.
func (s *DB) regeocodeItems(ctx context.Context, where string, args ...any) ([]regeocodeItem, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT p.rowid, p.id, p.caption, p.geo_digest, p.lon, p.lat, c.photo IS NOT NULL, (p.given & ?) != 0
		FROM photos p LEFT JOIN corrections c ON c.photo = p.rowid WHERE `+where, append([]any{photo.GivenPoint}, args...)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var items []regeocodeItem
	for rows.Next() {
		var it regeocodeItem
		if err := rows.Scan(&it.rowid, &it.id, &it.caption, &it.digest, &it.lon, &it.lat, &it.corrected, &it.given); err != nil {
			return nil, err
		}
		items = append(items, it)
	}
	return items, rows.Err()
}

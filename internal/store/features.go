package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/syriamap/syriamap/internal/photo"
)

// Feature is what a map or a GIS download shows of a photo: fewer columns
// than a Photo, read without decoding any JSON, for streaming many.
type Feature struct {
	ID, Caption          string
	Date                 photo.Date
	Photographer, Agency string
	PlaceID, PlaceName   string
	PlaceKind            string
	Governorate          string
	Precision            string
	Confidence           float64
	Mention              string
	ImageURL, ImagePath  string
	Lon, Lat             float64
	Located              bool
}

// EachFeature calls fn for each photo the filter selects, in the order
// they were imported, as the rows arrive: nothing is held in memory but
// the row at hand. fn must not keep f, which is reused; an error from fn
// stops the walk.
func (s *DB) EachFeature(ctx context.Context, flt photo.Filter, fn func(f *Feature) error) error {
	return s.EachFeatureIn(ctx, flt, 0, -1, fn)
}

// EachFeatureIn is EachFeature for the photos whose rowid is in (lo, hi];
// hi < 0 means no upper bound. Callers read an archive in ranges (see
// MaxRowid) to use more than one core: pure-Go SQLite spends about 2 µs on
// every row.
func (s *DB) EachFeatureIn(ctx context.Context, flt photo.Filter, lo, hi int64, fn func(f *Feature) error) error {
	w, args, err := s.filter(ctx, flt)
	if err != nil {
		return err
	}
	if lo > 0 || hi >= 0 {
		if hi < 0 {
			hi = 1<<62 - 1
		}
		w = "rowid > ? AND rowid <= ? AND " + w
		args = append([]any{lo, hi}, args...)
	}
	order := " ORDER BY rowid"
	if flt.Newest {
		order = " ORDER BY date_from DESC NULLS LAST, id"
	}
	if flt.Limit > 0 || flt.Offset > 0 {
		limit := flt.Limit
		if limit == 0 {
			limit = -1 // SQLite's no limit, for an offset alone
		}
		order += fmt.Sprintf(` LIMIT %d OFFSET %d`, limit, flt.Offset)
	}
	return s.queryFeatures(ctx, w, args, order, func(_ int64, f *Feature) error { return fn(f) })
}

// queryFeatures calls fn with the rowid and feature of each photo that the
// WHERE clause w selects, in the order (ORDER BY, LIMIT …) that tail
// gives. The Feature is reused between calls.
func (s *DB) queryFeatures(ctx context.Context, w string, args []any, tail string, fn func(rowid int64, f *Feature) error) error {
	q := `SELECT rowid, id, caption, date_from, date_to, date_precision, photographer, agency, place_id, place_name, place_kind,
		governorate, precision, confidence, mention, image_url, image_path, lon, lat
		FROM photos WHERE ` + w + tail
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("store: features: %w", err)
	}
	defer rows.Close()
	var f Feature
	var rowid int64
	var from, to sql.NullInt64
	var prec sql.NullString
	var lon, lat sql.NullFloat64
	for rows.Next() {
		if err := rows.Scan(&rowid, &f.ID, &f.Caption, &from, &to, &prec, &f.Photographer, &f.Agency, &f.PlaceID, &f.PlaceName,
			&f.PlaceKind, &f.Governorate, &f.Precision, &f.Confidence, &f.Mention, &f.ImageURL, &f.ImagePath, &lon, &lat); err != nil {
			return fmt.Errorf("store: features: %w", err)
		}
		f.Date = photo.DateFromSpan(int(from.Int64), int(to.Int64), prec.String)
		f.Lon, f.Lat, f.Located = lon.Float64, lat.Float64, lon.Valid
		if err := fn(rowid, &f); err != nil {
			return err
		}
	}
	return rows.Err()
}

// MaxRowid returns the highest rowid of the archive's photos, 0 when it
// is empty.
func (s *DB) MaxRowid(ctx context.Context) (int64, error) {
	var n int64
	if err := s.db.QueryRowContext(ctx, `SELECT coalesce(max(rowid), 0) FROM photos`).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	return n, nil
}

// PlaceCount is a place that has photos, with how many and over what time.
type PlaceCount struct {
	ID, Name, Kind, Governorate string
	Lon, Lat                    float64
	Count                       int
	// First and Last bound the photos' dates (zero when none is dated).
	First, Last photo.Date
}

// PlacesWithPhotos returns the places the filter's photos are shown at,
// with their counts, the most photographed first. Photos placed at a bare
// point (a correction or a file's point with no place) are left out.
func (s *DB) PlacesWithPhotos(ctx context.Context, flt photo.Filter) ([]PlaceCount, error) {
	w, args, err := s.filter(ctx, flt)
	if err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT place_id, max(place_name), max(place_kind), max(governorate), max(lon), max(lat),
		count(*), min(date_from), max(date_to) FROM photos WHERE place_id != '' AND lon IS NOT NULL AND `+w+`
		GROUP BY place_id ORDER BY count(*) DESC, place_id`, args...)
	if err != nil {
		return nil, fmt.Errorf("store: places: %w", err)
	}
	defer rows.Close()
	var out []PlaceCount
	for rows.Next() {
		var p PlaceCount
		var first, last sql.NullInt64
		if err := rows.Scan(&p.ID, &p.Name, &p.Kind, &p.Governorate, &p.Lon, &p.Lat, &p.Count, &first, &last); err != nil {
			return nil, fmt.Errorf("store: places: %w", err)
		}
		if first.Valid {
			p.First = photo.DateFromSpan(int(first.Int64), int(first.Int64), "day")
			p.Last = photo.DateFromSpan(int(last.Int64), int(last.Int64), "day")
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

package store

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"

	"github.com/syriamap/syriamap/internal/photo"
)

// EachFeature calls fn for each photo the filter selects, in the order
// they were imported (or newest first), as the rows arrive: nothing is held
// in memory but the row at hand. fn must not keep f, which is reused; an
// error from fn stops the walk. The query holds a reader for as long as fn
// takes: a server answering clients that may read slowly uses SelectIDs
// and EachFeatureOf instead.
func (s *DB) EachFeature(ctx context.Context, flt photo.Filter, fn func(f *photo.Feature) error) error {
	w, args, err := s.filter(ctx, flt)
	if err != nil {
		return err
	}
	tail := orderOf(flt) + limitOf(flt)
	return s.reading(ctx, flt.Query, "reading photos", func(ctx context.Context) error {
		return s.queryFeatures(ctx, w, args, tail, func(_ int64, f *photo.Feature) error { return fn(f) })
	})
}

// EachFeatureIn is EachFeature for the photos whose rowid is in (lo, hi],
// in rowid order, without the filter's order, limit and offset. Callers
// read an archive at large in such ranges to use more than one core
// (pure-Go SQLite spends about 2 µs on every row) and to hold a reader
// only while a range is read.
func (s *DB) EachFeatureIn(ctx context.Context, flt photo.Filter, lo, hi int64, fn func(f *photo.Feature) error) error {
	w, args, err := s.filter(ctx, flt)
	if err != nil {
		return err
	}
	w = "rowid > ? AND rowid <= ? AND " + w
	args = append([]any{lo, hi}, args...)
	return s.reading(ctx, flt.Query, "reading photos", func(ctx context.Context) error {
		return s.queryFeatures(ctx, w, args, " ORDER BY rowid", func(_ int64, f *photo.Feature) error { return fn(f) })
	})
}

// EachFeatureBulk is EachFeatureIn for reading the whole archive, as
// ctx's viewer sees it, range by range (the server's memory index): on connections of their own
// that do not map the file, so that reading every page once leaves it out
// of the process's memory.
func (s *DB) EachFeatureBulk(ctx context.Context, lo, hi int64, fn func(f *photo.Feature) error) error {
	return s.reading(ctx, "", "reading photos", func(ctx context.Context) error {
		return s.queryFeaturesOn(ctx, s.bulk, "rowid > ? AND rowid <= ? AND "+visible(ctx), []any{lo, hi}, " ORDER BY rowid",
			func(_ int64, f *photo.Feature) error { return fn(f) })
	})
}

// SelectIDs returns the rowids of the photos the filter selects, in its
// order (import order, or newest first) and after its offset and limit.
// It reads only indexes where the filter allows, and holds a reader only
// while it runs: the features are then read a few thousand at a time by
// EachFeatureOf, so that a client reading slowly holds no connection.
func (s *DB) SelectIDs(ctx context.Context, flt photo.Filter) ([]int64, error) {
	w, args, err := s.filter(ctx, flt)
	if err != nil {
		return nil, err
	}
	var ids []int64
	err = s.reading(ctx, flt.Query, "selecting photos", func(ctx context.Context) error {
		rows, err := s.read.QueryContext(ctx, `SELECT rowid FROM photos WHERE `+w+orderOf(flt)+limitOf(flt), args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				return err
			}
			ids = append(ids, id)
		}
		return rows.Err()
	})
	return ids, err
}

// EachFeatureOf calls fn for the features of the photos with the given
// rowids (from SelectIDs, a few thousand at most) in the filter's order.
// The filter is tested again, but for its full-text search (a caption
// never changes): a photo changed since SelectIDs so that the filter no
// longer selects it is left out.
func (s *DB) EachFeatureOf(ctx context.Context, flt photo.Filter, ids []int64, fn func(f *photo.Feature) error) error {
	if len(ids) == 0 {
		return nil
	}
	again := flt
	again.Query, again.Limit, again.Offset = "", 0, 0
	w, args, err := s.where(ctx, again)
	if err != nil {
		return err
	}
	list := make([]byte, 0, 8*len(ids))
	list = append(list, '[')
	for i, id := range ids {
		if i > 0 {
			list = append(list, ',')
		}
		list = strconv.AppendInt(list, id, 10)
	}
	list = append(list, ']')
	w = "rowid IN (SELECT CAST(value AS INTEGER) FROM json_each(?)) AND " + w
	args = append([]any{string(list)}, args...)
	return s.reading(ctx, "", "reading photos", func(ctx context.Context) error {
		return s.queryFeatures(ctx, w, args, orderOf(flt), func(_ int64, f *photo.Feature) error { return fn(f) })
	})
}

// orderOf is the ORDER BY of a filter's photos: import order, or newest
// first (undated last), then by id.
func orderOf(flt photo.Filter) string {
	if flt.Newest {
		return " ORDER BY date_from DESC NULLS LAST, id"
	}
	if flt.Oldest {
		return " ORDER BY date_from ASC NULLS LAST, id"
	}
	return " ORDER BY rowid"
}

// limitOf is the LIMIT and OFFSET of a filter, or "".
func limitOf(flt photo.Filter) string {
	if flt.Limit <= 0 && flt.Offset <= 0 {
		return ""
	}
	limit := flt.Limit
	if limit <= 0 {
		limit = -1 // SQLite's no limit, for an offset alone
	}
	return fmt.Sprintf(" LIMIT %d OFFSET %d", limit, flt.Offset)
}

// queryFeatures calls fn with the rowid and feature of each photo that the
// WHERE clause w selects, in the order (ORDER BY, LIMIT …) that tail
// gives. The Feature is reused between calls.
func (s *DB) queryFeatures(ctx context.Context, w string, args []any, tail string, fn func(rowid int64, f *photo.Feature) error) error {
	return s.queryFeaturesOn(ctx, s.read, w, args, tail, fn)
}

func (s *DB) queryFeaturesOn(ctx context.Context, db *sql.DB, w string, args []any, tail string, fn func(rowid int64, f *photo.Feature) error) error {
	q := `SELECT rowid, id, caption, date_from, date_to, date_precision, date_source, photographer, agency, place_id, place_name, place_kind,
		governorate, precision, confidence, mention, image_url, image_path, lon, lat, review, reviewed_by, reviewed_at,
		image_file, iptc_city, iptc_country, gps_lon, gps_lat, exif_time, agreement, agreement_note, reuse, harm, events, verified, second_look
		FROM photos WHERE ` + w + tail
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	var f photo.Feature
	var rowid int64
	var from, to sql.NullInt64
	var prec sql.NullString
	var lon, lat, gpsLon, gpsLat sql.NullFloat64
	var review, harm, look string
	ck := &f.Check
	viewer := photo.ViewerOf(ctx)
	for rows.Next() {
		if err := rows.Scan(&rowid, &f.ID, &f.Caption, &from, &to, &prec, &f.DateSource, &f.Photographer, &f.Agency, &f.PlaceID, &f.PlaceName,
			&f.PlaceKind, &f.Governorate, &f.Precision, &f.Confidence, &f.Mention, &f.ImageURL, &f.ImagePath, &lon, &lat,
			&review, &f.ReviewedBy, &f.ReviewedAt, &f.ImageFile, &ck.IPTCCity, &ck.IPTCCountry, &gpsLon, &gpsLat,
			&ck.EXIFTime, &ck.Agreement, &ck.Note, &f.Reuse, &harm, &f.Events, &f.Verified, &look); err != nil {
			return err
		}
		ck.GPSLon, ck.GPSLat, ck.HasGPS = gpsLon.Float64, gpsLat.Float64, gpsLon.Valid
		f.Seq = rowid
		f.Graphic = harm == photo.HarmGraphic
		f.Review = reviewOf(review)
		f.Date = photo.DateFromSpan(int(from.Int64), int(to.Int64), prec.String)
		f.Lon, f.Lat, f.Located = lon.Float64, lat.Float64, lon.Valid
		viewer.ShownFeature(&f, look)
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
	err := s.reading(ctx, "", "reading the archive's size", func(ctx context.Context) error {
		return s.read.QueryRowContext(ctx, `SELECT coalesce(max(rowid), 0) FROM photos`).Scan(&n)
	})
	return n, err
}

// PlacesWithPhotos returns the places the filter's photos are shown at,
// with their counts, the most photographed first. Photos placed at a bare
// point (a correction or a file's point with no place) are left out.
func (s *DB) PlacesWithPhotos(ctx context.Context, flt photo.Filter) ([]photo.PlaceCount, error) {
	w, args, err := s.filter(ctx, flt)
	if err != nil {
		return nil, err
	}
	var out []photo.PlaceCount
	err = s.reading(ctx, flt.Query, "counting places", func(ctx context.Context) error {
		rows, err := s.read.QueryContext(ctx, `SELECT place_id, max(place_name COLLATE BINARY), max(place_kind COLLATE BINARY),
			max(governorate COLLATE BINARY), max(lon), max(lat),
			count(*), min(date_from), max(date_to) FROM photos WHERE place_id != '' AND lon IS NOT NULL AND `+w+` AND `+placed(ctx)+`
			GROUP BY place_id ORDER BY count(*) DESC, place_id COLLATE BINARY`, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var p photo.PlaceCount
			var first, last sql.NullInt64
			if err := rows.Scan(&p.ID, &p.Name, &p.Kind, &p.Governorate, &p.Lon, &p.Lat, &p.Count, &first, &last); err != nil {
				return err
			}
			if first.Valid {
				p.First = photo.DateFromSpan(int(first.Int64), int(first.Int64), "day")
				p.Last = photo.DateFromSpan(int(last.Int64), int(last.Int64), "day")
			}
			out = append(out, p)
		}
		return rows.Err()
	})
	return out, err
}

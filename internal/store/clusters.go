package store

import (
	"context"
	"fmt"
	"strings"

	"github.com/syriamap/syriamap/internal/photo"
)

// Clusters groups the filter's placed photos into square cells of cell
// degrees, for maps of archives too large to send whole. The grouping
// reads only the window index (dates and points, with the rowid), so a
// month over a million photos costs little; the photos of one-photo cells
// are then read by rowid.
func (s *DB) Clusters(ctx context.Context, flt photo.Filter, cell float64) ([]photo.Cluster, error) {
	if cell <= 0 {
		return nil, fmt.Errorf("store: clusters: cell %v is not positive", cell)
	}
	w, args, err := s.filter(ctx, flt)
	if err != nil {
		return nil, err
	}
	var out []photo.Cluster
	err = s.reading(ctx, flt.Query, "clustering photos", func(ctx context.Context) error {
		out, err = s.clusters(ctx, w, args, cell)
		return err
	})
	return out, err
}

func (s *DB) clusters(ctx context.Context, w string, args []any, cell float64) ([]photo.Cluster, error) {
	// A cell is the floor of lon+180 and lat+90 over the cell's size
	// (floored, not cast: SQLite's cast truncates, PostgreSQL's rounds).
	// Points summed in whole millionths (photo.Micro): exact whatever
	// the order, so the mean is the memory index's and the site's.
	// The cells come west to east, then south to north, on either engine.
	q := `SELECT count(*), sum(round(lon * 1000000)), sum(round(lat * 1000000)), min(rowid),
		CAST(floor((lon + 180) / ?) AS INTEGER) AS cell_x, CAST(floor((lat + 90) / ?) AS INTEGER) AS cell_y
		FROM photos WHERE lon IS NOT NULL AND ` + w + ` AND ` + placed(ctx) + ` GROUP BY cell_x, cell_y ORDER BY cell_x, cell_y`
	rows, err := s.read.QueryContext(ctx, q, append([]any{cell, cell}, args...)...)
	if err != nil {
		return nil, err
	}
	var out []photo.Cluster
	var singles []any
	at := map[int64]int{}
	for rows.Next() {
		var c photo.Cluster
		var rowid, x, y int64
		var lon, lat float64
		if err := rows.Scan(&c.Count, &lon, &lat, &rowid, &x, &y); err != nil {
			rows.Close()
			return nil, err
		}
		c.Lon, c.Lat = photo.MeanOfMicro(lon, c.Count), photo.MeanOfMicro(lat, c.Count)
		if c.Count == 1 {
			at[rowid] = len(out)
			singles = append(singles, rowid)
		}
		out = append(out, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// The single photos, in batches under SQLite's parameter limit.
	for len(singles) > 0 {
		batch := singles[:min(len(singles), 500)]
		singles = singles[len(batch):]
		err := s.queryFeatures(ctx, "rowid IN ("+strings.Repeat("?,", len(batch)-1)+"?)", batch, "", func(rowid int64, f *photo.Feature) error {
			ft := *f
			out[at[rowid]].Single = &ft
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

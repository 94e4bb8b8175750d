package memindex

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/syriamap/syriamap/internal/photo"
)

// Clusters groups the placed photos the filter selects into square cells
// of cell degrees, as store.Clusters does — cells by floor((lon+180)/cell)
// and floor((lat+90)/cell), in that order, each with its count and mean
// point, and the photo of a one-photo cell — for the map's server-side
// clusters and the vector tiles, without reading SQLite.
func (ix *Index) Clusters(f photo.Filter, cell float64) ([]photo.Cluster, error) {
	if cell <= 0 {
		return nil, fmt.Errorf("memory index: clusters: cell %v is not positive", cell)
	}
	cells := map[[2]int64]*cellSum{}
	ix.visit(f, func(i int32) {
		lon, lat := ix.lon[i], ix.lat[i]
		if math.IsNaN(lon) {
			return
		}
		k := [2]int64{int64((lon + 180) / cell), int64((lat + 90) / cell)}
		a := cells[k]
		if a == nil {
			a = &cellSum{}
			cells[k] = a
		}
		a.add(ix, i)
	})
	keys := make([][2]int64, 0, len(cells))
	for k := range cells {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b [2]int64) int {
		if a[0] != b[0] {
			return int(a[0] - b[0])
		}
		return int(a[1] - b[1])
	})
	out := make([]photo.Cluster, 0, len(keys))
	for _, k := range keys {
		c, err := cells[k].cluster(ix)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// cellSum sums a cell's photos: how many, their points, and the one
// imported first.
type cellSum struct {
	n        int
	lon, lat int64 // photo.Micro, summed exactly
	first    int32
}

func (c *cellSum) add(ix *Index, i int32) {
	if c.n == 0 || ix.seq[i] < ix.seq[c.first] {
		c.first = i
	}
	c.n++
	c.lon += photo.Micro(ix.lon[i])
	c.lat += photo.Micro(ix.lat[i])
}

// cluster is the cell as a cluster: its count and mean point, and a
// photo alone its photo.
func (c *cellSum) cluster(ix *Index) (photo.Cluster, error) {
	out := photo.Cluster{Count: c.n, Lon: photo.MeanOfMicro(float64(c.lon), c.n), Lat: photo.MeanOfMicro(float64(c.lat), c.n)}
	if c.n == 1 {
		ft, err := ix.feature(c.first)
		if err != nil {
			return out, err
		}
		out.Single = ft
	}
	return out, nil
}

// Count is how many photos, placed or not, the filter selects.
func (ix *Index) Count(f photo.Filter) int {
	n := 0
	ix.visit(f, func(int32) { n++ })
	return n
}

// feature reads back the photo at position i: what a cluster's single
// photo is shown with (its id, date, credit, place name, placement and
// how its file's metadata agrees), from its Feature's text.
func (ix *Index) feature(i int32) (*photo.Feature, error) {
	text, err := ix.appendTexts(nil, []int32{i}, true)
	if err != nil {
		return nil, err
	}
	var g struct {
		ID         string `json:"id"`
		Properties struct {
			DatePrecision string  `json:"date_precision"`
			Photographer  string  `json:"photographer"`
			Agency        string  `json:"agency"`
			PlaceName     string  `json:"place_name"`
			Precision     string  `json:"precision"`
			Confidence    float64 `json:"confidence"`
			Agreement     string  `json:"agreement"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(text, &g); err != nil {
		return nil, fmt.Errorf("%w: photo %d: %v", ErrDamaged, ix.seq[i], err)
	}
	p := g.Properties
	ft := &photo.Feature{Seq: ix.seq[i], ID: g.ID, Date: photo.DateFromSpan(int(ix.from[i]), int(ix.to[i]), p.DatePrecision),
		Photographer: p.Photographer, Agency: p.Agency, PlaceName: p.PlaceName, Precision: p.Precision, Confidence: p.Confidence,
		Lon: ix.lon[i], Lat: ix.lat[i], Located: true}
	ft.Check.Agreement = p.Agreement
	return ft, nil
}

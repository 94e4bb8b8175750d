package publish

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/encoding/mvt"
	"github.com/paulmach/orb/geojson"
	"github.com/paulmach/orb/maptile"

	"github.com/syriamap/syriamap/internal/http/ogcapi"
)

// tilePoint is a placed photo as the tiles need it: its point, its
// first and last days (YYYYMMDD, 0 undated) and its id: with its first
// day, a page finds its Feature in the chunks (chunkTable).
type tilePoint struct {
	id       string
	lon, lat float64
	from, to int32
}

// The tiles are those the server's /tiles/photos serves (one layer,
// "photos"; clusters of cells a quarter of a tile wide below
// ogcapi.SingleZoom, single photos from it), for every zoom down to
// SingleZoom, where a reader's map over-zooms. A cluster also carries
// its photos' months, so that a page can count a cluster's photos in a
// time window without the photos: "m" is "YYYYMM:n" for the photos of
// one month and "YYYYMM-YYYYMM:n" for those whose date spans months (a
// year), "0:n" for the undated, joined by ";".
const (
	tileCells = 4
	tileLayer = ogcapi.TileLayer
)

// OverviewZoom is the deepest zoom of a site's overview: its cluster
// tiles down to this zoom in an archive small enough (about a hundred
// kilobytes at 250,000 photos) for a page to read whole when its host
// does not answer range requests, so that the map of a large site still
// fills at once, in coarser clusters past this zoom.
const OverviewZoom = 8

// buildTiles makes the PMTiles archives of pts: all its tiles, and its
// overview (those down to OverviewZoom).
func buildTiles(pts []tilePoint) (all, overview []byte, err error) {
	b := pmBounds{minLon: 180, minLat: 90, maxLon: -180, maxLat: -90, maxZoom: ogcapi.SingleZoom, centreZoom: 6}
	for _, p := range pts {
		b.minLon, b.maxLon = math.Min(b.minLon, p.lon), math.Max(b.maxLon, p.lon)
		b.minLat, b.maxLat = math.Min(b.minLat, p.lat), math.Max(b.maxLat, p.lat)
	}
	if len(pts) == 0 {
		b = pmBounds{minLon: 35.6, minLat: 32.3, maxLon: 42.4, maxLat: 37.4, maxZoom: ogcapi.SingleZoom, centreZoom: 6}
	}
	var tiles, shallow []pmTile
	for z := maptile.Zoom(0); z <= ogcapi.SingleZoom; z++ {
		byTile := map[maptile.Tile][]int{}
		for i, p := range pts {
			t := maptile.At(orb.Point{p.lon, p.lat}, z)
			byTile[t] = append(byTile[t], i)
		}
		for t, idx := range byTile {
			tile, err := encodeTile(t, pts, idx)
			if err != nil {
				return nil, nil, err
			}
			tiles = append(tiles, tile)
			if z <= OverviewZoom {
				shallow = append(shallow, tile)
			}
		}
	}
	if all, err = writePMTiles(tiles, tilesMetadata(ogcapi.SingleZoom), b); err != nil {
		return nil, nil, err
	}
	b.maxZoom = OverviewZoom
	overview, err = writePMTiles(shallow, tilesMetadata(OverviewZoom), b)
	return all, overview, err
}

// encodeTile is tile t of the photos idx of pts: their clusters below
// ogcapi.SingleZoom, the photos themselves from it.
func encodeTile(t maptile.Tile, pts []tilePoint, idx []int) (pmTile, error) {
	fc := geojson.NewFeatureCollection()
	if t.Z < ogcapi.SingleZoom {
		clusterTile(fc, t, pts, idx)
	} else {
		for _, i := range idx {
			p := pts[i]
			f := geojson.NewFeature(orb.Point{p.lon, p.lat})
			f.Properties = geojson.Properties{"count": 1, "id": p.id, "from": p.from, "to": p.to}
			fc.Append(f)
		}
	}
	layers := mvt.Layers{mvt.NewLayer(tileLayer, fc)}
	layers.ProjectToTile(t)
	data, err := mvt.MarshalGzipped(layers)
	if err != nil {
		return pmTile{}, fmt.Errorf("publish: encoding tile %d/%d/%d: %w", t.Z, t.X, t.Y, err)
	}
	return pmTile{z: uint8(t.Z), x: t.X, y: t.Y, data: data}, nil
}

// tilesMetadata is the archives' TileJSON-like metadata, to maxZoom.
func tilesMetadata(maxZoom int) map[string]any {
	return map[string]any{
		"name": "syriamap photos", "format": "pbf", "type": "overlay",
		"description": "Photos of the Syrian war placed by syriamap: clusters with counts below zoom 14, single photos from it.",
		"vector_layers": []map[string]any{{"id": tileLayer, "minzoom": 0, "maxzoom": maxZoom,
			"fields": map[string]string{"count": "Number", "m": "String", "id": "String", "from": "Number", "to": "Number"}}},
	}
}

// clusterTile appends the clusters of the photos idx of tile t: cells a
// tileCells-th of the tile wide, each at its photos' mean point.
func clusterTile(fc *geojson.FeatureCollection, t maptile.Tile, pts []tilePoint, idx []int) {
	bound := t.Bound()
	cell := (bound.Max[0] - bound.Min[0]) / tileCells
	type acc struct {
		n        int
		lon, lat float64
		months   map[[2]int32]int
		first    int // a one-photo cell's photo
	}
	cells := map[[2]int64]*acc{}
	for _, i := range idx {
		p := pts[i]
		key := [2]int64{int64((p.lon + 180) / cell), int64((p.lat + 90) / cell)}
		a := cells[key]
		if a == nil {
			a = &acc{months: map[[2]int32]int{}, first: i}
			cells[key] = a
		}
		a.n++
		a.lon += p.lon
		a.lat += p.lat
		a.months[[2]int32{p.from / 100, p.to / 100}]++
	}
	for _, k := range sortedKeys(cells) {
		a := cells[k]
		f := geojson.NewFeature(orb.Point{a.lon / float64(a.n), a.lat / float64(a.n)})
		f.Properties = geojson.Properties{"count": a.n, "m": monthsText(a.months)}
		if a.n == 1 {
			// As the server's clusters: a cell of one photo is that photo.
			p := pts[a.first]
			f.Properties["id"], f.Properties["from"] = p.id, p.from
		}
		fc.Append(f)
	}
}

// monthsText writes a cluster's month counts in month order.
func monthsText(months map[[2]int32]int) string {
	var sb strings.Builder
	for i, k := range sortedKeys(months) {
		if i > 0 {
			sb.WriteByte(';')
		}
		sb.WriteString(strconv.Itoa(int(k[0])))
		if k[1] != k[0] {
			sb.WriteByte('-')
			sb.WriteString(strconv.Itoa(int(k[1])))
		}
		sb.WriteByte(':')
		sb.WriteString(strconv.Itoa(months[k]))
	}
	return sb.String()
}

// sortedKeys returns a map's keys, pairs of numbers, in order: by the
// first number, then the second.
func sortedKeys[T cmp.Ordered, V any](m map[[2]T]V) [][2]T {
	return slices.SortedFunc(maps.Keys(m), func(a, b [2]T) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
}

package memindex

import (
	"cmp"
	"math"
	"slices"
	"sync"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/maptile"

	"github.com/syriamap/syriamap/internal/photo"
)

// A map view asks for its vector tiles all at once (35 at zoom 7 on a
// large screen), each a box of the same window. TileClusters clusters
// the window once per zoom, every tile at a time, and cuts the tiles
// from that: a view's tiles then cost about what one clusters request
// for the view does, and the next view at that zoom nothing more.

// maxTileSets bounds the windows and zooms whose clusters an index keeps.
const maxTileSets = 32

// tileSetKey names one clustering: a window and a zoom.
type tileSetKey struct {
	first, last int
	zoom        maptile.Zoom
	cells       int
}

// tileSet is the clusters of every tile at one zoom, by tile; a cluster
// of one photo holds its position (decoded when a tile is asked for).
type tileSet struct {
	once  sync.Once
	tiles map[maptile.Tile][]tileCluster
}

type tileCluster struct {
	kx, ky int64
	cellSum
}

// tileSets keeps an index's clusterings, the least recently made
// going first.
type tileSets struct {
	mu    sync.Mutex
	sets  map[tileSetKey]*tileSet
	order []tileSetKey
}

// TileClusters returns the clusters of tile t for the photos f selects
// (f's box aside: the tile is the box), with cellsPerTile cells across a
// tile, as Clusters makes them for the tile's box: cells of the same
// global grid, sorted alike. Each photo is in the one tile its point
// falls in. It reports false when f is more than a window (a limit, an
// offset, a cursor, another filter), which it does not answer.
func (ix *Index) TileClusters(f photo.Filter, t maptile.Tile, cellsPerTile int) ([]photo.Cluster, bool, error) {
	if f.Limit != 0 || f.Offset != 0 || f.After != 0 || !Indexable(f) {
		return nil, false, nil
	}
	w := photo.WindowOf(f)
	key := tileSetKey{first: w.First, last: w.Last, zoom: t.Z, cells: cellsPerTile}
	set := ix.tileSet(key)
	set.once.Do(func() {
		f.BBox = nil
		set.tiles = ix.clusterTiles(f, t.Z, cellsPerTile)
	})
	cs := set.tiles[maptile.New(t.X, t.Y, t.Z)]
	out := make([]photo.Cluster, 0, len(cs))
	for _, c := range cs {
		cl, err := c.cluster(ix)
		if err != nil {
			return nil, true, err
		}
		out = append(out, cl)
	}
	return out, true, nil
}

// tileSet returns the set for key, made (empty) if it is new.
func (ix *Index) tileSet(key tileSetKey) *tileSet {
	ts := ix.tileSets
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if s, ok := ts.sets[key]; ok {
		return s
	}
	if ts.sets == nil {
		ts.sets = map[tileSetKey]*tileSet{}
	}
	if len(ts.order) >= maxTileSets {
		delete(ts.sets, ts.order[0])
		ts.order = ts.order[1:]
	}
	s := &tileSet{}
	ts.sets[key] = s
	ts.order = append(ts.order, key)
	return s
}

// clusterTiles clusters the placed photos f selects in every tile at
// zoom z at once.
func (ix *Index) clusterTiles(f photo.Filter, z maptile.Zoom, cellsPerTile int) map[maptile.Tile][]tileCluster {
	// A tile's width in degrees of longitude is the same everywhere.
	cell := 360 / math.Exp2(float64(z)) / float64(cellsPerTile)
	type key struct {
		tile   maptile.Tile
		kx, ky int64
	}
	cells := map[key]*tileCluster{}
	ix.visit(f, func(i int32) {
		lon, lat := ix.lon[i], ix.lat[i]
		if math.IsNaN(lon) {
			return
		}
		k := key{tile: maptile.At(orb.Point{lon, lat}, z), kx: int64((lon + 180) / cell), ky: int64((lat + 90) / cell)}
		c := cells[k]
		if c == nil {
			c = &tileCluster{kx: k.kx, ky: k.ky}
			cells[k] = c
		}
		c.add(ix, i)
	})
	out := map[maptile.Tile][]tileCluster{}
	for k, c := range cells {
		out[k.tile] = append(out[k.tile], *c)
	}
	for _, cs := range out {
		slices.SortFunc(cs, func(a, b tileCluster) int {
			if a.kx != b.kx {
				return cmp.Compare(a.kx, b.kx)
			}
			return cmp.Compare(a.ky, b.ky)
		})
	}
	return out
}

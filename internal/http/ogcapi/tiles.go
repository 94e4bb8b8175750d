package ogcapi

import (
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/gorilla/mux"
	"github.com/paulmach/orb"
	"github.com/paulmach/orb/encoding/mvt"
	"github.com/paulmach/orb/geojson"
	"github.com/paulmach/orb/maptile"

	"github.com/syriamap/syriamap/internal/http/memindex"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/photo"
)

// Vector tiles of the photos (Mapbox Vector Tile 2.1), for GIS clients
// that draw a live layer from tiles (QGIS, MapLibre): one layer, photos,
// whose features are clusters with a count below SingleZoom and single
// photos from it on. They take the API's filters and its time window.

const (
	// maxTileZoom is the deepest zoom served; SingleZoom the first at which
	// each photo is its own feature (a tile then spans about 2.4 km).
	maxTileZoom = 20
	SingleZoom  = 14
	// tileCells is how many cluster cells span a tile's width: 64 px cells
	// at 256 px tiles, as the explorer's clusters are about 60 px.
	tileCells = 4
	// TileLayer is the one layer's name.
	TileLayer   = "photos"
	mediaMVT    = "application/vnd.mapbox-vector-tile"
	tileJSONVer = "3.0.0"
)

// tileParams are what a tile takes: the filters but bbox (a tile is its
// own box), and datetime.
func tileParams() []string {
	var out []string
	for _, p := range web.FilterParams {
		if p != "bbox" {
			out = append(out, p)
		}
	}
	return append(out, "datetime")
}

// tileFilter reads a tile's filters.
func (s *API) tileFilter(q url.Values) (photo.Filter, error) {
	if err := checkParams(q, tileParams()); err != nil {
		return photo.Filter{}, err
	}
	f, err := s.parseFilter(q)
	if err != nil {
		return f, err
	}
	return f, applyDatetime(q, &f)
}

// tileOf reads the route's z, x and y.
func tileOf(r *http.Request) (maptile.Tile, error) {
	vars := mux.Vars(r)
	z, err := strconv.Atoi(vars["z"])
	if err != nil || z > maxTileZoom {
		return maptile.Tile{}, web.BadParam("z", "%q: want a zoom from 0 to %d", vars["z"], maxTileZoom)
	}
	n := 1 << z
	var xy [2]int
	for i, name := range []string{"x", "y"} {
		v, err := strconv.Atoi(vars[name])
		if err != nil || v >= n {
			return maptile.Tile{}, web.BadParam(name, "%q: want 0 to %d at zoom %d", vars[name], n-1, z)
		}
		xy[i] = v
	}
	return maptile.New(uint32(xy[0]), uint32(xy[1]), maptile.Zoom(z)), nil
}

// photoTile serves one tile.
func (s *API) photoTile(w http.ResponseWriter, r *http.Request) {
	tile, err := tileOf(r)
	var f photo.Filter
	if err == nil {
		f, err = s.tileFilter(r.URL.Query())
	}
	if err != nil {
		s.error(w, r, err)
		return
	}
	version, ok := s.version(w, r)
	if !ok {
		return
	}
	data, err := s.tileData(r, tile, f, s.memIndexAt(version))
	if err != nil {
		s.error(w, r, err)
		return
	}
	w.Header().Set("Content-Type", mediaMVT)
	w.Write(data)
}

// tileData encodes the photos of one tile: clusters below SingleZoom,
// single photos from it on. Each photo lies in one tile only (the box is
// the tile's, and a cluster is of the tile's photos), so counts add up
// across tiles. The clusters come from the memory index ix when it is
// built and answers the filter, cut from its clusters of every tile at
// the zoom (memindex.TileClusters), else from SQLite.
func (s *API) tileData(r *http.Request, tile maptile.Tile, f photo.Filter, ix *memindex.Index) ([]byte, error) {
	bound := tile.Bound()
	f.BBox = &bound
	fc := geojson.NewFeatureCollection()
	if tile.Z < SingleZoom {
		cell := (bound.Max[0] - bound.Min[0]) / tileCells
		var cs []photo.Cluster
		var err error
		done := false
		if ix != nil {
			cs, done, err = ix.TileClusters(f, tile, tileCells)
		}
		if !done && err == nil {
			cs, err = s.db.Clusters(r.Context(), f, cell)
		}
		if err != nil {
			return nil, err
		}
		for _, c := range cs {
			if c.Single != nil {
				fc.Append(tileFeature(c.Single))
				continue
			}
			ft := geojson.NewFeature(orb.Point{c.Lon, c.Lat})
			ft.Properties = geojson.Properties{"count": c.Count}
			fc.Append(ft)
		}
	} else {
		err := s.db.EachFeature(r.Context(), f, func(ft *photo.Feature) error {
			fc.Append(tileFeature(ft))
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	layers := mvt.Layers{mvt.NewLayer(TileLayer, fc)}
	layers.ProjectToTile(tile)
	return mvt.Marshal(layers)
}

// tileFeature is one photo in a tile: a point with what a label or a
// click needs (the whole caption is a click away, at url).
func tileFeature(ft *photo.Feature) *geojson.Feature {
	g := geojson.NewFeature(orb.Point{ft.Lon, ft.Lat})
	g.Properties = geojson.Properties{"count": 1, "id": ft.ID, "date": web.ISODate(ft.Date), "date_precision": ft.Date.Precision,
		"agency": ft.Agency, "photographer": ft.Photographer, "place_name": ft.PlaceName, "precision": ft.Precision}
	return g
}

// tileJSON describes the tiles (TileJSON 3.0.0); its query's filters are
// carried into the tiles' URL template.
func (s *API) tileJSON(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if _, err := s.tileFilter(q); err != nil {
		s.error(w, r, err)
		return
	}
	e, err := s.db.Extent(r.Context())
	if err != nil {
		s.error(w, r, err)
		return
	}
	bounds := s.gazetteerBBox // an archive with no placed photo
	if e.BBox != nil {
		bounds = [4]float64{e.BBox.Min[0], e.BBox.Min[1], e.BBox.Max[0], e.BBox.Max[1]}
	}
	tiles := s.base(r) + strings.TrimSuffix(s.url("tilejson"), ".json") + "/{z}/{x}/{y}.mvt"
	if len(q) > 0 {
		tiles += "?" + q.Encode()
	}
	fields := map[string]string{"count": "Number: photos in the cluster (1 for a photo)", "id": "String: the photo's id",
		"date": "String: the first day of its date", "date_precision": "String: day, month or year", "agency": "String",
		"photographer": "String", "place_name": "String", "precision": "String: how the place was found"}
	s.writeJSON(w, r, mediaJSON, map[string]any{
		"tilejson": tileJSONVer, "name": "syriamap photos", "version": "1.0.0", "scheme": "xyz",
		"description": "News photos placed by their captions: clusters with a count below zoom " + strconv.Itoa(SingleZoom) + ", single photos from it on.",
		"attribution": "syriamap", "tiles": []string{tiles}, "minzoom": 0, "maxzoom": maxTileZoom,
		"bounds": bounds, "center": []float64{math.Round((bounds[0]+bounds[2])/2*1e4) / 1e4, math.Round((bounds[1]+bounds[3])/2*1e4) / 1e4, 6},
		"vector_layers": []map[string]any{{"id": TileLayer, "fields": fields, "minzoom": 0, "maxzoom": maxTileZoom,
			"description": "Photos and clusters of photos"}},
	})
}

package httpapi

import (
	"cmp"
	"net/http"
	"slices"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geojson"

	"github.com/syriamap/syriamap/internal/gazetteer"
	"github.com/syriamap/syriamap/internal/web"
)

// labelZoom is the zoom from which the map names places of each kind:
// cities from 6, towns from 9, villages, quarters, camps and the like from
// 12, so that a city's quarters can be told apart when zoomed in.
// Regions and admin units are named by the basemap, or not at all.
var labelZoom = map[gazetteer.Kind]int{
	gazetteer.City: 6, gazetteer.Town: 9, gazetteer.Village: 12, gazetteer.Neighbourhood: 12,
	gazetteer.Camp: 12, gazetteer.Crossing: 12, gazetteer.Landmark: 12,
}

// maxLabels bounds the labels of one view: the most prominent first, the
// map drops those that would overlap.
const maxLabels = 400

// labelPlaces are the gazetteer's places that the map may name, most
// prominent first.
func labelPlaces(g *gazetteer.Gazetteer) []*gazetteer.Place {
	var out []*gazetteer.Place
	for i := range g.Places() {
		p := &g.Places()[i]
		if _, ok := labelZoom[p.Kind]; ok && p.Located {
			out = append(out, p)
		}
	}
	slices.SortStableFunc(out, func(a, b *gazetteer.Place) int {
		return cmp.Compare(gazetteer.Prominence(b), gazetteer.Prominence(a))
	})
	return out
}

// labels serves the names the map shows in a view (bbox) at a zoom: the
// gazetteer's display names, the same the filters and pages use.
func (s *Server) labels(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	zoom, err := web.IntParam(q, "zoom", 6, 0, 22)
	if err != nil {
		s.error(w, r, err)
		return
	}
	v := q.Get("bbox")
	if v == "" {
		s.error(w, r, web.BadParam("bbox", "is required: minLon,minLat,maxLon,maxLat"))
		return
	}
	box, err := web.ParseBBox(v)
	if err != nil {
		s.error(w, r, err)
		return
	}
	fc := geojson.NewFeatureCollection()
	for _, p := range s.labelPlaces {
		if labelZoom[p.Kind] > zoom || !box.Contains(p.Point) {
			continue
		}
		f := geojson.NewFeature(orb.Point{web.Round6(p.Point.Lon()), web.Round6(p.Point.Lat())})
		f.ID = p.ID
		f.Properties = geojson.Properties{"name": p.Name, "kind": string(p.Kind)}
		fc.Append(f)
		if len(fc.Features) == maxLabels {
			break
		}
	}
	// The gazetteer is the binary's: a view's labels never change.
	w.Header().Set("Cache-Control", "public, max-age=86400")
	s.writeJSON(w, r, "application/geo+json", fc)
}

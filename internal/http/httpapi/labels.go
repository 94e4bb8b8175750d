package httpapi

import (
	"net/http"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geojson"

	"github.com/syriamap/syriamap/internal/http/web"
)

// labels serves the names the map shows in a view (bbox) at a zoom: the
// gazetteer's display names, the same the filters and pages use.
func (s *Server) labels(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	zoom, err := web.IntParam(q, "zoom", 6, 0, 22)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	v := q.Get("bbox")
	if v == "" {
		s.Error(w, r, web.BadParam("bbox", "is required: minLon,minLat,maxLon,maxLat"))
		return
	}
	box, err := web.ParseBBox(v)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	fc := geojson.NewFeatureCollection()
	for _, p := range s.labelPlaces {
		if web.LabelZoom[p.Kind] > zoom || !box.Contains(p.Point) {
			continue
		}
		f := geojson.NewFeature(orb.Point{web.Round6(p.Point.Lon()), web.Round6(p.Point.Lat())})
		f.ID = p.ID
		f.Properties = geojson.Properties{"name": p.Name, "kind": string(p.Kind)}
		if p.NameAr != "" {
			f.Properties["name_ar"] = p.NameAr
		}
		fc.Append(f)
		if len(fc.Features) == web.MaxLabels {
			break
		}
	}
	// The gazetteer is the binary's: a view's labels never change.
	w.Header().Set("Cache-Control", "public, max-age=86400")
	s.WriteJSON(w, r, "application/geo+json", fc)
}

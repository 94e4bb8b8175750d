package httpapi

import (
	"math"
	"net/http"

	"github.com/syriamap/syriamap/internal/http/memindex"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/photo"
)

// clusterJSON is one cell of /api/clusters.
type clusterJSON struct {
	Lon       float64 `json:"lon"`
	Lat       float64 `json:"lat"`
	Count     int     `json:"count"`
	ID        string  `json:"id,omitempty"`        // a one-photo cell's photo
	Placement *int    `json:"placement,omitempty"` // as in /api/points
	Metadata  *int    `json:"metadata,omitempty"`  // as in /api/points
	// BBox is the cell's square, minLon,minLat,maxLon,maxLat: the view
	// that lists a cluster's photos.
	BBox *[4]float64 `json:"bbox,omitempty"`
}

// clusters serves the selected placed photos grouped in square cells for
// the map's zoom, for archives too large to send whole (the explorer
// switches to it by itself): ?zoom=Z plus the usual filters, bbox for the
// view. It also counts the selected photos, placed or not, for "N of M".
func (s *Server) clusters(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f, err := s.parseFilter(q)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	zoom, err := web.ClustersZoom.Parse(q)
	if err == nil && zoom < 0 {
		err = web.BadParam("zoom", web.ZoomRequiredMessage)
	}
	if err != nil {
		s.Error(w, r, err)
		return
	}
	version, ok := s.version(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	cell := 360 * web.ClusterPixels / (256 * math.Exp2(float64(zoom)))
	noBox := f
	noBox.BBox = nil
	var cs []photo.Cluster
	var matching int
	if ix := s.memIndexAt(version); ix != nil && memindex.Indexable(f) {
		// From memory, as the windows are: the timeline's steps at a
		// million photos ask for these.
		cs, err = ix.Clusters(f, cell)
		matching = ix.Count(noBox)
	} else if cs, err = s.db.Clusters(ctx, f, cell); err == nil {
		matching, err = s.db.CountPhotos(ctx, noBox)
	}
	if err != nil {
		s.Error(w, r, err)
		return
	}
	out := struct {
		Matching int           `json:"matching"` // selected photos, placed or not, anywhere
		Clusters []clusterJSON `json:"clusters"`
	}{Matching: matching, Clusters: make([]clusterJSON, 0, len(cs))}
	for _, c := range cs {
		j := clusterJSON{Lon: web.Round6(c.Lon), Lat: web.Round6(c.Lat), Count: c.Count}
		if ft := c.Single; ft != nil {
			code, meta := web.PlacementCode(ft.Precision, ft.Confidence), web.MarkCode(ft)
			j.ID, j.Placement, j.Metadata = ft.ID, &code, &meta
		} else {
			// The store groups by floor((lon+180)/cell), floor((lat+90)/cell).
			x, y := math.Floor((c.Lon+180)/cell)*cell-180, math.Floor((c.Lat+90)/cell)*cell-90
			j.BBox = &[4]float64{web.Round6(x), web.Round6(y), web.Round6(x + cell), web.Round6(y + cell)}
		}
		out.Clusters = append(out.Clusters, j)
	}
	s.WriteJSON(w, r, "application/json", out)
}

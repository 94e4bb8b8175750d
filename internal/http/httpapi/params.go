package httpapi

import (
	"net/http"
	"net/url"

	"github.com/syriamap/syriamap/internal/http/httpcache"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/photo"
)

// parseFilter reads the list filters from a request's query, naming a
// place by its gazetteer id: any id of a place that merges several source
// records (a GeoNames id, an OCHA P-code, a curated key) selects it.
func (s *Server) parseFilter(q url.Values) (photo.Filter, error) {
	f, err := web.ParseFilter(q)
	for i, id := range f.PlaceIDs {
		if p := s.archive.Gazetteer().ByID(id); p != nil {
			f.PlaceIDs[i] = p.ID
		}
	}
	return f, err
}

// version is the archive version the request is answered from (the one
// its ETag names: see httpcache), or false when it cannot be read (the
// error is answered).
func (s *Server) version(w http.ResponseWriter, r *http.Request) (int64, bool) {
	if v, ok := httpcache.PhotosVersion(r); ok {
		return v, true
	}
	v, err := s.db.Version(r.Context()) // not through the layer: a test calling a handler
	if err != nil {
		s.Error(w, r, err)
		return 0, false
	}
	return v, true
}

package httpapi

import (
	"context"
	"net/http"

	"github.com/syriamap/syriamap/internal/http/featurestream"
	"github.com/syriamap/syriamap/internal/http/memindex"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/photo"
)

// photoStore is what the read handlers ask of the archive's storage.
type photoStore interface {
	Version(ctx context.Context) (int64, error)
	Versions(ctx context.Context) (photos, all int64, err error)
	Health(ctx context.Context) error
	QuickCheck(ctx context.Context) error
	Count(ctx context.Context) (int, error)
	CountPhotos(ctx context.Context, f photo.Filter) (int, error)
	Photo(ctx context.Context, id string) (*photo.Photo, error)
	Photos(ctx context.Context, f photo.Filter) ([]photo.Photo, error)
	SelectIDs(ctx context.Context, flt photo.Filter) ([]int64, error)
	MaxRowid(ctx context.Context) (int64, error)
	EachFeature(ctx context.Context, flt photo.Filter, fn func(f *photo.Feature) error) error
	EachFeatureIn(ctx context.Context, flt photo.Filter, lo, hi int64, fn func(f *photo.Feature) error) error
	EachFeatureBulk(ctx context.Context, lo, hi int64, fn func(f *photo.Feature) error) error
	EachFeatureOf(ctx context.Context, flt photo.Filter, ids []int64, fn func(f *photo.Feature) error) error
	Clusters(ctx context.Context, flt photo.Filter, cell float64) ([]photo.Cluster, error)
	Extent(ctx context.Context) (photo.Extent, error)
	Facets(ctx context.Context, f photo.Filter, limit int, facets ...photo.Facet) (photo.Facets, error)
	Histogram(ctx context.Context, f photo.Filter) ([]photo.MonthCount, error)
	DayHistogram(ctx context.Context, f photo.Filter) ([]photo.MonthCount, error)
	PlacesWithPhotos(ctx context.Context, flt photo.Filter) ([]photo.PlaceCount, error)
}

// listRequest reads what every list endpoint reads: the filters, the
// archive version and, with download=1, the attachment header. It returns
// done when the response is already answered (an error, or a HEAD
// request, which gets the headers without the work).
func (s *Server) listRequest(w http.ResponseWriter, r *http.Request, ext, contentType string) (photo.Filter, int64, bool) {
	q := r.URL.Query()
	f, err := s.parseFilter(q)
	if err == nil {
		f.Limit, err = web.ListLimit.Parse(q)
	}
	if err == nil {
		f.Offset, err = web.ListOffset.Parse(q)
	}
	var order string
	if err == nil {
		order, err = web.ListOrder.Parse(q)
		f.Newest = order == "newest"
	}
	if err != nil {
		s.Error(w, r, err)
		return f, 0, true
	}
	version, ok := s.version(w, r)
	if !ok {
		return f, version, true
	}
	w.Header().Set("Content-Type", contentType)
	if v := q.Get("download"); v == "1" || v == "true" {
		w.Header().Set("Content-Disposition", `attachment; filename="`+downloadName(f, ext)+`"`)
	}
	if r.Method == http.MethodHead {
		w.WriteHeader(http.StatusOK)
		return f, version, true
	}
	return f, version, false
}

// downloadName says what a download holds: syriamap-photos, the window
// (first and last day), and "filtered" when other filters narrowed it.
func downloadName(f photo.Filter, ext string) string {
	name := "syriamap-photos"
	if !f.From.IsZero() || !f.To.IsZero() {
		from, to := "start", "end"
		if !f.From.IsZero() {
			a, _ := f.From.Span()
			from = photo.DateFromSpan(a, a, "day").String()
		}
		if !f.To.IsZero() {
			_, b := f.To.Span()
			to = photo.DateFromSpan(b, b, "day").String()
		}
		name += "-" + from + "_" + to
	}
	// Any filter but the window and the order narrows the selection.
	f.From, f.To, f.Limit, f.Offset, f.Newest = photo.Date{}, photo.Date{}, 0, 0, false
	if !f.IsZero() {
		name += "-filtered"
	}
	return name + ext
}

// photosGeoJSON serves the selected photos as an RFC 7946 FeatureCollection.
func (s *Server) photosGeoJSON(w http.ResponseWriter, r *http.Request) {
	f, version, done := s.listRequest(w, r, ".geojson", "application/geo+json")
	if done {
		return
	}
	const head, tail = `{"type":"FeatureCollection","features":[` + "\n", "\n]}\n"
	if memindex.Indexable(f) && web.AcceptsGzip(r) {
		if ix := s.memIndexAt(version); ix != nil {
			s.writeWindow(w, ix, ix.Select(f), head, featurestream.Fixed(tail))
			return
		}
	}
	s.stream.Stream(w, r, f, s.base(r), head, ",\n", featurestream.Fixed(tail), func(b []byte, base string, ft *photo.Feature) []byte {
		return web.AppendFeature(b, ft, s.links(base, ft), s.publicGPS)
	})
}

// photosGeoJSONSeq serves the selected photos as GeoJSON text sequences
// (RFC 8142): each feature after a record separator, on its own line.
func (s *Server) photosGeoJSONSeq(w http.ResponseWriter, r *http.Request) {
	f, _, done := s.listRequest(w, r, ".geojsonl", "application/geo+json-seq")
	if done {
		return
	}
	s.stream.Stream(w, r, f, s.base(r), "", "", featurestream.Fixed(""), func(b []byte, base string, ft *photo.Feature) []byte {
		b = append(b, 0x1e)
		b = web.AppendFeature(b, ft, s.links(base, ft), s.publicGPS)
		return append(b, '\n')
	})
}

// photosCSV serves the selected photos as CSV, for spreadsheets and for
// GDAL with X_POSSIBLE_NAMES=lon Y_POSSIBLE_NAMES=lat.
func (s *Server) photosCSV(w http.ResponseWriter, r *http.Request) {
	f, _, done := s.listRequest(w, r, ".csv", "text/csv; charset=utf-8")
	if done {
		return
	}
	s.stream.Stream(w, r, f, s.base(r), string(web.AppendCSVRow(nil, web.CSVHeader)), "", featurestream.Fixed(""), func(b []byte, base string, ft *photo.Feature) []byte {
		return web.AppendCSVFeature(b, ft, s.links(base, ft), s.publicGPS)
	})
}

// photosPoints serves the selected photos in the compact form the map
// loads once and filters itself: one array per photo, [id, lon, lat,
// first day, last day, placement], days as YYYYMMDD numbers (0 when
// undated) and lon, lat null when unplaced.
func (s *Server) photosPoints(w http.ResponseWriter, r *http.Request) {
	f, _, done := s.listRequest(w, r, ".json", "application/json")
	if done {
		return
	}
	head := `{"fields":["id","lon","lat","from","to","placement","metadata"],"placement":{"exact":0,"fallback":1,"low":2,"corrected":3},` +
		`"metadata":{"agrees or nothing to compare":0,"near":1,"disagrees":2,"the same frame under a caption that disagrees":3},"points":[` + "\n"
	s.stream.Stream(w, r, f, s.base(r), head, ",\n", featurestream.Fixed("\n]}\n"), func(b []byte, _ string, ft *photo.Feature) []byte {
		b = web.AppendPoint(b, ft)
		return append(b, ']')
	})
}

package httpapi

import (
	"bufio"
	"encoding/csv"
	"net/http"
	"strconv"

	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/store"
)

// listRequest reads what every list endpoint reads: the filters, the ETag
// check and, with download=1, the attachment header. It returns done when
// the response is already answered (an error or a 304).
func (s *Server) listRequest(w http.ResponseWriter, r *http.Request, route, ext, contentType string) (photo.Filter, bool) {
	q := r.URL.Query()
	f, err := parseFilter(q)
	if err == nil {
		f.Limit, err = intParam(q, "limit", 0, 0, 10_000_000)
	}
	if err == nil {
		err = s.archive.DB.CheckQuery(r.Context(), f.Query) // before the first byte is sent
	}
	if err != nil {
		s.error(w, r, err)
		return f, true
	}
	if done, err := s.checkETag(w, r, route); err != nil || done {
		if err != nil {
			s.error(w, r, err)
		}
		return f, true
	}
	w.Header().Set("Content-Type", contentType)
	if v := q.Get("download"); v == "1" || v == "true" {
		w.Header().Set("Content-Disposition", `attachment; filename="`+downloadName(f, ext)+`"`)
	}
	return f, false
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
	if f.BBox != nil || f.Query != "" || f.Agency != "" || f.Photographer != "" || f.PlaceID != "" || f.Governorate != "" || f.MinConfidence > 0 {
		name += "-filtered"
	}
	return name + ext
}

// streamFeatures writes each selected photo through write, buffered, and
// flushes now and then so that a long download starts at once.
func (s *Server) streamFeatures(w http.ResponseWriter, r *http.Request, f photo.Filter, head, tail string, write func(b []byte, base string, ft *store.Feature, n int) []byte) {
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString(head)
	base := baseURL(r)
	var b []byte
	n := 0
	err := s.archive.DB.EachFeature(r.Context(), f, func(ft *store.Feature) error {
		b = write(b[:0], base, ft, n)
		n++
		_, err := bw.Write(b)
		return err
	})
	if err != nil {
		// The status is sent; all that is left is to stop and log.
		s.log.Warn("stream cut short", "path", r.URL.Path, "err", err)
		bw.Flush()
		return
	}
	bw.WriteString(tail)
	bw.Flush()
}

// photosGeoJSON serves the selected photos as an RFC 7946 FeatureCollection.
func (s *Server) photosGeoJSON(w http.ResponseWriter, r *http.Request) {
	f, done := s.listRequest(w, r, "photos.geojson", ".geojson", "application/geo+json")
	if done {
		return
	}
	s.streamFeatures(w, r, f, `{"type":"FeatureCollection","features":[`+"\n", "\n]}\n", func(b []byte, base string, ft *store.Feature, n int) []byte {
		if n > 0 {
			b = append(b, ",\n"...)
		}
		return appendFeature(b, ft, s.links(base, ft))
	})
}

// photosGeoJSONSeq serves the selected photos as GeoJSON text sequences
// (RFC 8142): each feature after a record separator, on its own line.
func (s *Server) photosGeoJSONSeq(w http.ResponseWriter, r *http.Request) {
	f, done := s.listRequest(w, r, "photos.geojsonl", ".geojsonl", "application/geo+json-seq")
	if done {
		return
	}
	s.streamFeatures(w, r, f, "", "", func(b []byte, base string, ft *store.Feature, _ int) []byte {
		b = append(b, 0x1e)
		b = appendFeature(b, ft, s.links(base, ft))
		return append(b, '\n')
	})
}

// csvHeader are the CSV columns: the GeoJSON properties with lon and lat.
var csvHeader = []string{"id", "lon", "lat", "date", "date_precision", "caption", "photographer", "agency", "place_id",
	"place_name", "place_kind", "governorate", "precision", "confidence", "mention", "image_url", "url"}

// photosCSV serves the selected photos as CSV, for spreadsheets and for
// GDAL with X_POSSIBLE_NAMES=lon Y_POSSIBLE_NAMES=lat.
func (s *Server) photosCSV(w http.ResponseWriter, r *http.Request) {
	f, done := s.listRequest(w, r, "photos.csv", ".csv", "text/csv; charset=utf-8")
	if done {
		return
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	cw := csv.NewWriter(bw)
	cw.Write(csvHeader)
	rec := make([]string, len(csvHeader))
	base := baseURL(r)
	err := s.archive.DB.EachFeature(r.Context(), f, func(ft *store.Feature) error {
		lon, lat := "", ""
		if ft.Located {
			lon, lat = strconv.FormatFloat(ft.Lon, 'f', 6, 64), strconv.FormatFloat(ft.Lat, 'f', 6, 64)
		}
		l := s.links(base, ft)
		copy(rec, []string{ft.ID, lon, lat, isoDate(ft.Date), ft.Date.Precision, ft.Caption, ft.Photographer, ft.Agency,
			ft.PlaceID, ft.PlaceName, ft.PlaceKind, ft.Governorate, ft.Precision,
			strconv.FormatFloat(ft.Confidence, 'f', -1, 64), ft.Mention, l.image, l.page})
		return cw.Write(rec)
	})
	if err != nil {
		s.log.Warn("stream cut short", "path", r.URL.Path, "err", err)
	}
	cw.Flush()
	bw.Flush()
}

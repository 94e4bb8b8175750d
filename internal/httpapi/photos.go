package httpapi

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"

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
		f.Offset, err = intParam(q, "offset", 0, 0, 10_000_000)
	}
	if err == nil {
		switch q.Get("order") {
		case "", "import":
		case "newest":
			f.Newest = true
		default:
			err = badParam("order", "%q: want newest or import", q.Get("order"))
		}
	}
	if err == nil {
		err = s.archive.DB.CheckQuery(r.Context(), f.Query) // before the first byte is sent
	}
	if err != nil {
		s.error(w, r, err)
		return f, true
	}
	if s.checkETag(w, r, route) {
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

// encodeFunc appends one feature, encoded, to b.
type encodeFunc func(b []byte, base string, ft *store.Feature) []byte

// rangeRows is how many rowids one range of a parallel stream covers:
// small enough that the last range's write barely outlasts its reading,
// large enough that its query costs nothing. Tests shrink it.
var rangeRows int64 = 5000

// streamFeatures writes head, each selected photo encoded by enc with sep
// between them, and tail, flushing as it goes so that a long download
// starts at once. A map window, box or search is read in one go through
// its index. A download of the archive at large is read in rowid ranges by
// two goroutines, each encoding (and, for a client that takes gzip,
// compressing) its range into a buffer that is written in order: two
// cores halve it, and at most a few ranges are held at once.
func (s *Server) streamFeatures(w http.ResponseWriter, r *http.Request, f photo.Filter, head, sep, tail string, enc encodeFunc) {
	maxRowid, err := s.archive.DB.MaxRowid(r.Context())
	ranges := err == nil && atLarge(f) && maxRowid > rangeRows
	var gz *gzipStream
	var out io.Writer = w
	if ranges && acceptsGzip(r) && r.Method != http.MethodHead {
		// Compressed here, range by range; the middleware leaves a
		// response that has its encoding alone.
		w.Header().Set("Content-Encoding", "gzip")
		if gz, err = newGzipStream(w); err != nil {
			return // the client is gone
		}
		out = gz
	}
	lw := &listWriter{bw: bufio.NewWriterSize(out, 64<<10), gz: gz, sep: sep}
	lw.bw.WriteString(head)
	base := baseURL(r)
	switch {
	case err != nil:
	case ranges:
		err = s.streamRanges(r, f, maxRowid, base, enc, lw)
	default:
		var b []byte
		err = s.archive.DB.EachFeature(r.Context(), f, func(ft *store.Feature) error {
			b = enc(b[:0], base, ft)
			return lw.put(b)
		})
	}
	if err != nil {
		// The status is sent; all that is left is to stop and log, quietly
		// when the client hung up. A gzip stream is left without its
		// trailer, so the client knows it was cut.
		lw.bw.Flush()
		level := slog.LevelWarn
		if r.Context().Err() != nil {
			level = slog.LevelDebug
		}
		s.log.Log(r.Context(), level, "stream cut short", "path", r.URL.Path, "err", err)
		return
	}
	lw.bw.WriteString(tail)
	if err := lw.bw.Flush(); err == nil && gz != nil {
		gz.Close()
	}
}

// listWriter writes a list's features with the separator between them.
type listWriter struct {
	bw      *bufio.Writer
	gz      *gzipStream // the response's compressor when the handler compresses
	sep     string
	started bool // a feature has been written
}

func (lw *listWriter) put(feature []byte) error {
	if lw.started {
		lw.bw.WriteString(lw.sep)
	}
	lw.started = true
	_, err := lw.bw.Write(feature)
	return err
}

// atLarge reports whether the filter reads the archive at large, where
// rowid ranges pay; any narrower filter is served by its index in one go
// (a full-text search, for one, would otherwise run once per range).
func atLarge(f photo.Filter) bool {
	narrow := f
	narrow.MinConfidence, narrow.Limit, narrow.Offset = 0, 0, 0
	return narrow == photo.Filter{} // Newest, too, is one query
}

// encodedRange is one rowid range of features, each after the separator.
type encodedRange struct {
	buf      []byte
	ends     []int         // where each feature ends in buf
	deflated *bytes.Buffer // buf compressed by deflateRange, when gzipping
	err      error
}

// streamRanges encodes the rowid ranges of the archive on two goroutines
// and puts the features in order, honouring the filter's offset and limit.
func (s *Server) streamRanges(r *http.Request, f photo.Filter, maxRowid int64, base string, enc encodeFunc, lw *listWriter) error {
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	n := int(maxRowid/rangeRows + 1)
	slots := make([]chan encodedRange, n)
	for i := range slots {
		slots[i] = make(chan encodedRange, 1)
	}
	next := make(chan int)
	ahead := make(chan struct{}, 3) // ranges encoded but not yet written
	perRange := f
	perRange.Limit, perRange.Offset = 0, 0
	for range 2 {
		go func() {
			for i := range next {
				c := encodedRange{buf: chunkPool.Get().([]byte)[:0]}
				c.err = s.archive.DB.EachFeatureIn(ctx, perRange, int64(i)*rangeRows, int64(i+1)*rangeRows, func(ft *store.Feature) error {
					c.buf = append(c.buf, lw.sep...)
					c.buf = enc(c.buf, base, ft)
					c.ends = append(c.ends, len(c.buf))
					return nil
				})
				// The first range never goes out whole (its first
				// separator must go), so it is compressed by the writer.
				if c.err == nil && lw.gz != nil && i > 0 && len(c.ends) > 0 {
					c.deflated = deflatedPool.Get().(*bytes.Buffer)
					c.deflated.Reset()
					c.err = deflateRange(c.deflated, c.buf)
				}
				slots[i] <- c
			}
		}()
	}
	go func() {
		defer close(next)
		for i := 0; i < n; i++ {
			select {
			case ahead <- struct{}{}:
			case <-ctx.Done():
				return
			}
			select {
			case next <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	skip, left := f.Offset, f.Limit
	for i := 0; i < n; i++ {
		var c encodedRange
		select {
		case c = <-slots[i]:
		case <-ctx.Done():
			return ctx.Err()
		}
		<-ahead
		if c.err != nil {
			return c.err
		}
		done, err := lw.putRange(c, &skip, &left)
		chunkPool.Put(c.buf[:0]) //nolint:staticcheck // a slice header, reused for its backing array
		if c.deflated != nil {
			deflatedPool.Put(c.deflated)
		}
		if err != nil || done {
			return err
		}
	}
	return nil
}

// chunkPool keeps the buffers ranges are encoded into, which grow to tens
// of megabytes: reusing them spares the allocation and the copying.
var chunkPool = sync.Pool{New: func() any { return make([]byte, 0, 1<<20) }}

var deflatedPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// putRange puts the features of one encoded range, skipping and counting
// down as the filter's offset and limit say (left 0: no limit); done is
// true at the limit. A range compressed by its goroutine goes out as it
// is when all of it is wanted and a feature came before it (its first
// separator is then right); any other is compressed here.
func (lw *listWriter) putRange(c encodedRange, skip, left *int) (done bool, err error) {
	n := len(c.ends)
	if c.deflated != nil && lw.started && *skip == 0 && (*left == 0 || *left >= n) {
		if err := lw.bw.Flush(); err != nil {
			return true, err
		}
		if err := lw.gz.WriteDeflated(c.buf, c.deflated.Bytes()); err != nil {
			return true, err
		}
		if *left > 0 {
			*left -= n
			return *left == 0, nil
		}
		return false, nil
	}
	start := 0
	for _, end := range c.ends {
		feature := c.buf[start+len(lw.sep) : end]
		start = end
		if *skip > 0 {
			*skip--
			continue
		}
		if err := lw.put(feature); err != nil {
			return true, err
		}
		if *left > 0 {
			if *left--; *left == 0 {
				return true, nil
			}
		}
	}
	return false, nil
}

// photosGeoJSON serves the selected photos as an RFC 7946 FeatureCollection.
func (s *Server) photosGeoJSON(w http.ResponseWriter, r *http.Request) {
	f, done := s.listRequest(w, r, "photos.geojson", ".geojson", "application/geo+json")
	if done {
		return
	}
	s.streamFeatures(w, r, f, `{"type":"FeatureCollection","features":[`+"\n", ",\n", "\n]}\n", func(b []byte, base string, ft *store.Feature) []byte {
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
	s.streamFeatures(w, r, f, "", "", "", func(b []byte, base string, ft *store.Feature) []byte {
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
	header := appendCSVRow(nil, csvHeader)
	s.streamFeatures(w, r, f, string(header), "", "", func(b []byte, base string, ft *store.Feature) []byte {
		lon, lat := "", ""
		if ft.Located {
			lon, lat = strconv.FormatFloat(ft.Lon, 'f', 6, 64), strconv.FormatFloat(ft.Lat, 'f', 6, 64)
		}
		l := s.links(base, ft)
		return appendCSVRow(b, []string{ft.ID, lon, lat, isoDate(ft.Date), ft.Date.Precision, ft.Caption, ft.Photographer,
			ft.Agency, ft.PlaceID, ft.PlaceName, ft.PlaceKind, ft.Governorate, ft.Precision,
			strconv.FormatFloat(ft.Confidence, 'f', -1, 64), ft.Mention, l.image, l.page})
	})
}

// appendCSVRow appends one CSV record (RFC 4180: fields with a comma, a
// quote or a line break are quoted, quotes doubled; CRLF-free).
func appendCSVRow(b []byte, fields []string) []byte {
	for i, f := range fields {
		if i > 0 {
			b = append(b, ',')
		}
		if !strings.ContainsAny(f, ",\"\r\n") && !strings.HasPrefix(f, " ") {
			b = append(b, f...)
			continue
		}
		b = append(b, '"')
		b = append(b, strings.ReplaceAll(f, `"`, `""`)...)
		b = append(b, '"')
	}
	return append(b, '\n')
}

// Placement codes in /api/points: how the map draws a photo.
const (
	placedExact    = 0
	placedFallback = 1 // at a place that holds the one the caption names
	placedLow      = 2 // confidence under one half
)

// placementCode is how the map draws a photo placed with the precision
// and confidence.
func placementCode(precision string, confidence float64) int {
	switch {
	case precision == "fallback":
		return placedFallback
	case confidence < 0.5 && precision != "corrected" && precision != "given":
		return placedLow
	}
	return placedExact
}

// photosPoints serves the selected photos in the compact form the map
// loads once and filters itself: one array per photo, [id, lon, lat,
// first day, last day, placement], days as YYYYMMDD numbers (0 when
// undated) and lon, lat null when unplaced.
func (s *Server) photosPoints(w http.ResponseWriter, r *http.Request) {
	f, done := s.listRequest(w, r, "points", ".json", "application/json")
	if done {
		return
	}
	head := `{"fields":["id","lon","lat","from","to","placement"],"placement":{"exact":0,"fallback":1,"low":2},"points":[` + "\n"
	s.streamFeatures(w, r, f, head, ",\n", "\n]}\n", func(b []byte, _ string, ft *store.Feature) []byte {
		b = append(b, '[')
		b = appendString(b, ft.ID)
		if ft.Located {
			b = append(b, ',')
			b = strconv.AppendFloat(b, ft.Lon, 'f', 5, 64)
			b = append(b, ',')
			b = strconv.AppendFloat(b, ft.Lat, 'f', 5, 64)
		} else {
			b = append(b, ",null,null"...)
		}
		from, to := 0, 0
		if !ft.Date.IsZero() {
			from, to = ft.Date.Span()
		}
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(from), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(to), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(placementCode(ft.Precision, ft.Confidence)), 10)
		return append(b, ']')
	})
}

package httpapi

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/syriamap/syriamap/internal/gzjoin"
	"github.com/syriamap/syriamap/internal/memindex"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/web"
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
		f.Limit, err = web.IntParam(q, "limit", 0, 0, 10_000_000)
	}
	if err == nil {
		f.Offset, err = web.IntParam(q, "offset", 0, 0, 10_000_000)
	}
	if err == nil {
		switch q.Get("order") {
		case "", "import":
		case "newest":
			f.Newest = true
		default:
			err = web.BadParam("order", "%q: want newest or import", q.Get("order"))
		}
	}
	if err != nil {
		s.error(w, r, err)
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

// maxDownloads bounds the downloads of more than one chunk in flight, and
// defaultWriteIdle is how long one may wait for its client to take more.
const (
	maxDownloads     = 64
	defaultWriteIdle = time.Minute
)

// defaultChunkRows is how many photos one chunk of a stream covers: small
// enough that the last chunk's write barely outlasts its reading, large
// enough that its query costs nothing.
const defaultChunkRows = 5000

// chunk is a part of a stream, read with one query: a rowid range (lo,
// hi] of the archive at large, or some of the rowids a filter selected.
type chunk struct {
	lo, hi int64
	ids    []int64
}

// plan splits the filter's photos into chunks. The archive at large is
// cut into rowid ranges; any other selection is first read as rowids (from
// the indexes, where the filter allows; a search in the lane), cut into
// chunks of as many. Either way no reader is held while the client reads:
// a slow client cannot keep a connection from others.
func (s *Server) plan(r *http.Request, f photo.Filter) ([]chunk, error) {
	if atLarge(f) {
		maxRowid, err := s.db.MaxRowid(r.Context())
		if err != nil {
			return nil, err
		}
		var chunks []chunk
		for lo := int64(0); lo < maxRowid; lo += s.chunkRows {
			chunks = append(chunks, chunk{lo: lo, hi: lo + s.chunkRows})
		}
		return chunks, nil
	}
	if f.Query != "" {
		leave, err := s.lane.Admit(r.Context())
		if err != nil {
			return nil, err
		}
		defer leave()
	}
	ids, err := s.db.SelectIDs(r.Context(), f)
	if err != nil {
		return nil, err
	}
	chunks := make([]chunk, 0, len(ids)/int(s.chunkRows)+1)
	for len(ids) > 0 {
		n := min(len(ids), int(s.chunkRows))
		chunks = append(chunks, chunk{ids: ids[:n]})
		ids = ids[n:]
	}
	return chunks, nil
}

// readChunk calls fn for each feature of the chunk.
func (s *Server) readChunk(ctx context.Context, f photo.Filter, c chunk, fn func(ft *photo.Feature) error) error {
	if c.ids != nil {
		return s.db.EachFeatureOf(ctx, f, c.ids, fn)
	}
	return s.db.EachFeatureIn(ctx, f, c.lo, c.hi, fn)
}

// streamFeatures writes head, each selected photo encoded by enc with sep
// between them, and tail, flushing as it goes so that a long download
// starts at once. The photos are chosen (plan) before the status is sent,
// so a bad search or a busy archive is still a proper error; then two
// goroutines read and encode the chunks, and for a client that takes gzip
// compress them too, while this one writes them in order: two cores halve
// a large download, and only a few chunks are held at once. A failure
// after the status is sent aborts the connection, so that the client sees
// a cut-off transfer, never a complete-looking one.
func (s *Server) streamFeatures(w http.ResponseWriter, r *http.Request, f photo.Filter, head, sep string, tail func(written int, last int64) string, enc web.EncodeFunc) {
	chunks, err := s.plan(r, f)
	if err != nil {
		s.error(w, r, err)
		return
	}
	if len(chunks) > 1 {
		// Each download in flight holds a few encoded chunks: their number
		// is bounded, so that many slow clients cannot run the server out
		// of memory.
		if n := s.inFlight.Add(1); n > maxDownloads {
			s.inFlight.Add(-1)
			s.error(w, r, photo.Errorf(photo.EUnavailable, "the server is sending %d downloads already; try again in a few seconds", maxDownloads))
			return
		}
		defer s.inFlight.Add(-1)
	}
	var gz *gzjoin.Writer
	var out io.Writer = w
	if len(chunks) > 1 && web.AcceptsGzip(r) {
		// Compressed here, chunk by chunk; the middleware leaves a
		// response that has its encoding alone.
		w.Header().Set("Content-Encoding", "gzip")
		if gz, err = gzjoin.New(w); err != nil {
			return // the client is gone
		}
		out = gz
	}
	lw := &listWriter{bw: bufio.NewWriterSize(out, 64<<10), gz: gz, sep: sep}
	lw.bw.WriteString(head)
	if err := s.streamChunks(w, r, f, chunks, s.base(r), enc, lw); err != nil {
		if r.Context().Err() != nil {
			s.log.Debug("stream abandoned by the client", "path", r.URL.Path, "err", err)
		} else {
			s.log.Warn("stream cut short", "path", r.URL.Path, "err", err)
		}
		panic(http.ErrAbortHandler) // the status is sent: all that is left is to cut the connection
	}
	lw.bw.WriteString(tail(lw.written, lw.last))
	if err := lw.bw.Flush(); err == nil && gz != nil {
		gz.Close()
	}
}

// fixed is a tail that does not depend on the features written.
func fixed(tail string) func(int, int64) string { return func(int, int64) string { return tail } }

// listWriter writes a list's features with the separator between them.
type listWriter struct {
	bw      *bufio.Writer
	gz      *gzjoin.Writer // the response's compressor when the handler compresses
	sep     string
	written int   // features written so far
	last    int64 // the Seq of the last
}

func (lw *listWriter) put(feature []byte) error {
	if lw.written > 0 {
		lw.bw.WriteString(lw.sep)
	}
	lw.written++
	_, err := lw.bw.Write(feature)
	return err
}

// atLarge reports whether the filter reads the archive at large, in
// import order and whole, where rowid ranges pay; any narrower filter is
// first selected through its indexes.
func atLarge(f photo.Filter) bool {
	return f.IsZero()
}

// encodedChunk is one chunk of features, each after the separator.
type encodedChunk struct {
	buf      []byte
	ends     []int         // where each feature ends in buf
	deflated *bytes.Buffer // buf compressed by deflateRange, when gzipping
	last     int64         // the Seq of the last feature
	err      error
}

// streamChunks encodes the chunks on two goroutines and puts the features
// in order.
func (s *Server) streamChunks(w http.ResponseWriter, r *http.Request, f photo.Filter, chunks []chunk, base string, enc web.EncodeFunc, lw *listWriter) error {
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	rc := http.NewResponseController(w)
	n := len(chunks)
	slots := make([]chan encodedChunk, n)
	for i := range slots {
		slots[i] = make(chan encodedChunk, 1)
	}
	next := make(chan int)
	ahead := make(chan struct{}, 2) // chunks encoded but not yet written
	// A download of many chunks reads and encodes each in the lane, so
	// that downloads cannot crowd out map windows and page views; a single
	// chunk (a map window) is cheap and goes straight through.
	encode := func(i int) (c encodedChunk) {
		if n > 1 {
			leave, err := s.lane.Wait(ctx)
			if err != nil {
				return encodedChunk{err: err}
			}
			defer leave()
		}
		c.buf = chunkPool.Get().([]byte)[:0]
		c.err = s.readChunkFunc(ctx, f, chunks[i], func(ft *photo.Feature) error {
			c.buf = append(c.buf, lw.sep...)
			c.buf = enc(c.buf, base, ft)
			c.ends = append(c.ends, len(c.buf))
			c.last = ft.Seq
			return nil
		})
		// The first chunk never goes out whole (its first separator must
		// go), so it is compressed by the writer.
		if c.err == nil && lw.gz != nil && i > 0 && len(c.ends) > 0 {
			c.deflated = deflatedPool.Get().(*bytes.Buffer)
			c.deflated.Reset()
			c.err = gzjoin.Deflate(c.deflated, c.buf)
		}
		return c
	}
	for range min(2, n) {
		go func() {
			for i := range next {
				slots[i] <- encode(i)
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
	for i := 0; i < n; i++ {
		var c encodedChunk
		select {
		case c = <-slots[i]:
		case <-ctx.Done():
			return ctx.Err()
		}
		<-ahead
		if c.err != nil {
			return c.err
		}
		// A client may take as long as it likes over a download, as long
		// as it keeps reading: one that takes nothing for a while is cut
		// off, and the memory its chunks hold is freed.
		rc.SetWriteDeadline(time.Now().Add(s.writeIdle))
		err := lw.putChunk(c)
		chunkPool.Put(c.buf[:0]) //lint:ignore SA6002 a slice header, reused for its backing array
		if c.deflated != nil {
			deflatedPool.Put(c.deflated)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// chunkPool keeps the buffers chunks are encoded into, which grow to
// megabytes: reusing them spares the allocation and the copying.
var chunkPool = sync.Pool{New: func() any { return make([]byte, 0, 1<<20) }}

var deflatedPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// putChunk puts the features of one encoded chunk. A chunk compressed by
// its goroutine goes out as it is when a feature came before it (its
// first separator is then right); any other is compressed here.
func (lw *listWriter) putChunk(c encodedChunk) error {
	if len(c.ends) > 0 {
		lw.last = c.last
	}
	if c.deflated != nil && lw.written > 0 {
		if err := lw.bw.Flush(); err != nil {
			return err
		}
		lw.written += len(c.ends)
		return lw.gz.WriteDeflated(c.buf, c.deflated.Bytes())
	}
	start := 0
	for _, end := range c.ends {
		feature := c.buf[start+len(lw.sep) : end]
		start = end
		if err := lw.put(feature); err != nil {
			return err
		}
	}
	return nil
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
			s.writeWindow(w, ix, ix.Select(f), head, fixed(tail))
			return
		}
	}
	s.streamFeatures(w, r, f, head, ",\n", fixed(tail), func(b []byte, base string, ft *photo.Feature) []byte {
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
	s.streamFeatures(w, r, f, "", "", fixed(""), func(b []byte, base string, ft *photo.Feature) []byte {
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
	s.streamFeatures(w, r, f, string(web.AppendCSVRow(nil, web.CSVHeader)), "", fixed(""), func(b []byte, base string, ft *photo.Feature) []byte {
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
	s.streamFeatures(w, r, f, head, ",\n", fixed("\n]}\n"), func(b []byte, _ string, ft *photo.Feature) []byte {
		b = web.AppendPoint(b, ft)
		return append(b, ']')
	})
}

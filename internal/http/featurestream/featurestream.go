// Package featurestream writes the photos a filter selects as one HTTP
// answer of any size: a GeoJSON collection, a text sequence, CSV, the
// map's points. The photos are chosen before the status is sent; then two
// goroutines read and encode chunks of them (and compress them, for a
// client that takes gzip) while the handler's writes them in order, so a
// download starts at once, two cores halve a large one, and a slow client
// holds no reader and only a few chunks.
package featurestream

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/syriamap/syriamap/internal/http/gzjoin"
	"github.com/syriamap/syriamap/internal/http/lane"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/photo"
)

// MaxDownloads bounds the downloads of more than one chunk in flight, and
// DefaultWriteIdle is how long one may wait for its client to take more.
const (
	MaxDownloads     = 64
	DefaultWriteIdle = time.Minute
)

// DefaultChunkRows is how many photos one chunk of a stream covers: small
// enough that the last chunk's write barely outlasts its reading, large
// enough that its query costs nothing.
const DefaultChunkRows = 5000

// Source is what a stream reads of the archive's storage.
type Source interface {
	MaxRowid(ctx context.Context) (int64, error)
	SelectIDs(ctx context.Context, flt photo.Filter) ([]int64, error)
	EachFeatureIn(ctx context.Context, flt photo.Filter, lo, hi int64, fn func(f *photo.Feature) error) error
	EachFeatureOf(ctx context.Context, flt photo.Filter, ids []int64, fn func(f *photo.Feature) error) error
}

// Streamer writes streams. Set its fields before it serves; New gives the
// defaults.
type Streamer struct {
	Source Source
	// Lane admits searches and the chunks of downloads, so that downloads
	// cannot crowd out map windows and page views.
	Lane *lane.Lane
	// Error answers a request with an error, before the status is sent.
	Error func(w http.ResponseWriter, r *http.Request, err error)
	Log   *slog.Logger
	// ChunkRows: see DefaultChunkRows; WriteIdle: see DefaultWriteIdle.
	ChunkRows int64
	WriteIdle time.Duration
	// ReadChunk reads one chunk (Streamer.Read); tests change it.
	ReadChunk func(ctx context.Context, f photo.Filter, c Chunk, fn func(ft *photo.Feature) error) error
	// inFlight counts the downloads of more than one chunk in flight.
	inFlight atomic.Int32
}

// New returns a streamer of src's photos with the defaults.
func New(src Source, l *lane.Lane, errorFunc func(w http.ResponseWriter, r *http.Request, err error), log *slog.Logger) *Streamer {
	s := &Streamer{Source: src, Lane: l, Error: errorFunc, Log: log, ChunkRows: DefaultChunkRows, WriteIdle: DefaultWriteIdle}
	s.ReadChunk = s.Read
	return s
}

// InFlight is how many downloads of more than one chunk are being sent.
func (s *Streamer) InFlight() int { return int(s.inFlight.Load()) }

// Chunk is a part of a stream, read with one query: a rowid range (lo,
// hi] of the archive at large, or some of the rowids a filter selected.
type Chunk struct {
	lo, hi int64
	ids    []int64
}

// plan splits the filter's photos into chunks. The archive at large is
// cut into rowid ranges; any other selection is first read as rowids (from
// the indexes, where the filter allows; a search in the lane), cut into
// chunks of as many. Either way no reader is held while the client reads:
// a slow client cannot keep a connection from others.
func (s *Streamer) plan(r *http.Request, f photo.Filter) ([]Chunk, error) {
	if atLarge(f) {
		maxRowid, err := s.Source.MaxRowid(r.Context())
		if err != nil {
			return nil, err
		}
		var chunks []Chunk
		for lo := int64(0); lo < maxRowid; lo += s.ChunkRows {
			chunks = append(chunks, Chunk{lo: lo, hi: lo + s.ChunkRows})
		}
		return chunks, nil
	}
	if f.Query != "" {
		leave, err := s.Lane.Admit(r.Context())
		if err != nil {
			return nil, err
		}
		defer leave()
	}
	ids, err := s.Source.SelectIDs(r.Context(), f)
	if err != nil {
		return nil, err
	}
	chunks := make([]Chunk, 0, len(ids)/int(s.ChunkRows)+1)
	for len(ids) > 0 {
		n := min(len(ids), int(s.ChunkRows))
		chunks = append(chunks, Chunk{ids: ids[:n]})
		ids = ids[n:]
	}
	return chunks, nil
}

// Read calls fn for each feature of the chunk.
func (s *Streamer) Read(ctx context.Context, f photo.Filter, c Chunk, fn func(ft *photo.Feature) error) error {
	if c.ids != nil {
		return s.Source.EachFeatureOf(ctx, f, c.ids, fn)
	}
	return s.Source.EachFeatureIn(ctx, f, c.lo, c.hi, fn)
}

// Stream writes head, each photo f selects encoded by enc (with the base
// of absolute links) with sep between them, and tail, flushing as it goes so that a long download
// starts at once. The photos are chosen (plan) before the status is sent,
// so a bad search or a busy archive is still a proper error; then two
// goroutines read and encode the chunks, and for a client that takes gzip
// compress them too, while this one writes them in order: two cores halve
// a large download, and only a few chunks are held at once. A failure
// after the status is sent aborts the connection, so that the client sees
// a cut-off transfer, never a complete-looking one.
func (s *Streamer) Stream(w http.ResponseWriter, r *http.Request, f photo.Filter, base, head, sep string, tail func(written int, last int64) string, enc web.EncodeFunc) {
	chunks, err := s.plan(r, f)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	if len(chunks) > 1 {
		// Each download in flight holds a few encoded chunks: their number
		// is bounded, so that many slow clients cannot run the server out
		// of memory.
		if n := s.inFlight.Add(1); n > MaxDownloads {
			s.inFlight.Add(-1)
			s.Error(w, r, photo.Errorf(photo.EUnavailable, "the server is sending %d downloads already; try again in a few seconds", MaxDownloads))
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
	if err := s.streamChunks(w, r, f, chunks, base, enc, lw); err != nil {
		if r.Context().Err() != nil {
			s.Log.Debug("stream abandoned by the client", "path", r.URL.Path, "err", err)
		} else {
			s.Log.Warn("stream cut short", "path", r.URL.Path, "err", err)
		}
		panic(http.ErrAbortHandler) // the status is sent: all that is left is to cut the connection
	}
	lw.bw.WriteString(tail(lw.written, lw.last))
	if err := lw.bw.Flush(); err == nil && gz != nil {
		gz.Close()
	}
}

// Fixed is a tail that does not depend on the features written.
func Fixed(tail string) func(int, int64) string { return func(int, int64) string { return tail } }

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
func (s *Streamer) streamChunks(w http.ResponseWriter, r *http.Request, f photo.Filter, chunks []Chunk, base string, enc web.EncodeFunc, lw *listWriter) error {
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
			leave, err := s.Lane.Wait(ctx)
			if err != nil {
				return encodedChunk{err: err}
			}
			defer leave()
		}
		c.buf = chunkPool.Get().([]byte)[:0]
		c.err = s.ReadChunk(ctx, f, chunks[i], func(ft *photo.Feature) error {
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
		rc.SetWriteDeadline(time.Now().Add(s.WriteIdle))
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

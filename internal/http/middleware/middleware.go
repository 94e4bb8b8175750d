// Package middleware wraps the server's handler: the security headers
// every response carries, gzip for what compresses, and a log line per
// request with a write deadline that cuts off a client that stops
// reading.
package middleware

import (
	"log/slog"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/syriamap/syriamap/internal/http/gzjoin"
	"github.com/syriamap/syriamap/internal/http/web"
)

// SecurityHeaders sets the headers every response carries. Images come
// from the server itself (and data: and blob: URLs its scripts make) and
// from the tile server, if one was given: nothing wider, so that no text
// in the archive can make a reader's browser call another site. A photo's
// image held elsewhere (image_url) is linked, not loaded.
func SecurityHeaders(next http.Handler, tiles string) http.Handler {
	csp := web.ContentSecurityPolicy(tiles) + "; frame-ancestors 'none'"
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("X-Frame-Options", "DENY")
		next.ServeHTTP(w, r)
	})
}

// ReplicaHeader is the response header that names the server that
// answered, among replicas behind a load balancer (see Replica).
const ReplicaHeader = "X-Syriamap-Replica"

// Replica names the server in every answer's ReplicaHeader, so that an
// operator (and a test) sees which replica a load balancer sent a
// request to; with name "" it adds nothing.
func Replica(next http.Handler, name string) http.Handler {
	if name == "" {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set(ReplicaHeader, name)
		next.ServeHTTP(w, r)
	})
}

// statusWriter remembers a response's status and size for the log, and
// whether writing it failed. Each write may wait for the client at most
// idle (the write deadline moves on as the client reads): a client that
// stops reading is cut off then, whatever the response, rather than
// holding its goroutine and the memory its response refers to (an old
// memory index, a chunk of a download) until the server's write timeout.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
	failed bool
	rc     *http.ResponseController
	idle   time.Duration
	// deadlineAt is when the write deadline was last moved; it is moved
	// at most once a second.
	deadlineAt time.Time
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	if now := time.Now(); now.Sub(w.deadlineAt) > time.Second {
		w.rc.SetWriteDeadline(now.Add(w.idle))
		w.deadlineAt = now
	}
	n, err := w.ResponseWriter.Write(p)
	w.bytes += int64(n)
	if err != nil {
		w.failed = true
	}
	return n, err
}

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// LogRequests logs one structured line per request: aborted when its
// handler gave up (a panic) or its response could not be written whole.
// Each write may wait idle() for the client (see statusWriter).
func LogRequests(next http.Handler, log *slog.Logger, idle func() time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w, rc: http.NewResponseController(w), idle: idle()}
		aborted := true
		defer func() {
			log.LogAttrs(r.Context(), slog.LevelInfo, "request",
				slog.String("method", r.Method), slog.String("path", web.LogPath(r.URL.Path)), slog.String("query", redactQuery(r.URL.RawQuery)),
				slog.Int("status", sw.status), slog.Int64("bytes", sw.bytes), slog.Duration("took", time.Since(start)),
				slog.Bool("aborted", aborted || sw.failed))
		}()
		next.ServeHTTP(sw, r)
		aborted = false
	})
}

var gzipPool = sync.Pool{New: func() any {
	w, _ := gzip.NewWriterLevel(nil, gzjoin.Level)
	return w
}}

// compressors bounds the gzip writers in use at once: each holds about
// 1 MB (level 5's hash chains and window), and 500 clients asking for
// photo pages at once held 500 of them, 1.3 GB with the rest. Two cores
// compress no faster with more than a few at once. A response that finds
// none free within compressorWait goes uncompressed: larger, not late.
var compressors = make(chan struct{}, 8*max(1, runtime.GOMAXPROCS(0)))

// compressorWait is how long a response waits for a free compressor.
const compressorWait = 100 * time.Millisecond

// takeCompressor takes a compressor slot, waiting at most compressorWait.
func takeCompressor() bool {
	select {
	case compressors <- struct{}{}:
		return true
	default:
	}
	t := time.NewTimer(compressorWait)
	defer t.Stop()
	select {
	case compressors <- struct{}{}:
		return true
	case <-t.C:
		return false
	}
}

// gzipWriter compresses a response's body, once its handler has said it is
// text (JSON, CSV) by its Content-Type.
type gzipWriter struct {
	http.ResponseWriter
	gz      *gzip.Writer
	decided bool
}

func (w *gzipWriter) WriteHeader(code int) {
	if !w.decided {
		w.decided = true
		ct := w.Header().Get("Content-Type")
		if code == http.StatusOK && w.Header().Get("Content-Encoding") == "" && Compressible(ct) && takeCompressor() {
			w.Header().Set("Content-Encoding", "gzip")
			w.Header().Del("Content-Length")
			w.gz = gzipPool.Get().(*gzip.Writer)
			w.gz.Reset(w.ResponseWriter)
		}
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *gzipWriter) Write(p []byte) (int, error) {
	if !w.decided {
		w.WriteHeader(http.StatusOK)
	}
	if w.gz != nil {
		return w.gz.Write(p)
	}
	return w.ResponseWriter.Write(p)
}

func (w *gzipWriter) Flush() {
	if w.gz != nil {
		w.gz.Flush()
	}
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *gzipWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *gzipWriter) close() {
	if w.gz != nil {
		w.gz.Close()
		gzipPool.Put(w.gz)
	}
}

// release gives back the compressor's slot, once the response is done.
func (w *gzipWriter) release() {
	if w.gz != nil {
		w.gz = nil
		<-compressors
	}
}

// Compressible reports whether a Content-Type is text that gzip pays on.
func Compressible(ct string) bool {
	return strings.HasPrefix(ct, "application/") && (strings.Contains(ct, "json") || strings.Contains(ct, "csv")) ||
		strings.HasPrefix(ct, "text/")
}

// Compress gzips text responses for clients that accept it (HEAD too, so
// that its headers are GET's). A handler that panics (to abort the
// connection) gets no gzip trailer: the body must not look complete.
func Compress(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Vary", "Accept-Encoding")
		if !web.AcceptsGzip(r) {
			next.ServeHTTP(w, r)
			return
		}
		gw := &gzipWriter{ResponseWriter: w}
		defer gw.release() // on a panic too: the compressor's slot
		next.ServeHTTP(gw, r)
		gw.close()
	})
}

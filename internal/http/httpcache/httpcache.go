// Package httpcache is the layer in front of a server's read routes.
// Every read route's answer is a function of the archive's version, the
// route, its normalised query, the reader's language, what they accept and
// who they are: the layer says so once. It names the answer by those (its
// ETag), answers a request that has it with 304 before any handler runs,
// says how long a shared cache may keep it (a reader's: SharedMaxAge; an
// editor's: never), and keeps readers' finished answers in the response
// cache (internal/respcache), whose counters it serves to Prometheus.
package httpcache

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/mux"
	"github.com/klauspost/compress/gzip"

	"github.com/syriamap/syriamap/internal/http/gzjoin"
	"github.com/syriamap/syriamap/internal/http/middleware"
	"github.com/syriamap/syriamap/internal/http/respcache"
	"github.com/syriamap/syriamap/internal/http/session"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/i18n"
)

// maxKept is the largest answer kept: a country-wide month of a million
// photos (1.6 MB) fits; a download does not, and each of the downloads in
// flight holds a copy of its answer only this far.
const maxKept = 2 << 20

// Defaults of a server's response cache and of how long shared caches
// keep a reader's answer.
const (
	DefaultCacheBytes   = 64 << 20
	DefaultSharedMaxAge = time.Minute
)

// Layer is the layer in front of the read routes. Its fields are set once,
// before it serves.
type Layer struct {
	// Versions reads the archive's version of the photos and its count of
	// all changes the viewer may know of (an editor's takes in the changes
	// to withheld photos; a reader's does not).
	Versions func(ctx context.Context, editor bool) (photos, changes int64, err error)
	// Error answers a request with an error.
	Error func(w http.ResponseWriter, r *http.Request, err error)
	// Cache keeps readers' finished answers; nil keeps none.
	Cache *respcache.Cache
	// SharedMaxAge is how long a shared cache may keep a reader's answer;
	// 0 or less, not at all.
	SharedMaxAge time.Duration
	// Own names the read routes the layer leaves alone: their answers are
	// files (assets, images) with validators of their own content, or
	// probes that must do their work every time.
	Own map[string]bool
	// Log is where LogCache writes.
	Log *slog.Logger
}

// photosVersionKey is where the layer tells the handler of a read the
// archive's version of the photos the answer is of (read once, with the
// count of all changes the ETag names, so that both name one state).
type photosVersionKey struct{}

// bootID tells this server's answers from those of one before a restart,
// whose options (--public-gps) or templates may have been others.
var bootID = func() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}()

// Middleware is the layer, for mux's Router.Use (it needs the route).
func (l *Layer) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		route := mux.CurrentRoute(r)
		if (r.Method != http.MethodGet && r.Method != http.MethodHead) || route == nil {
			next.ServeHTTP(w, r)
			return
		}
		editor := session.MayBeEditor(r)
		if editor {
			w = privateAnswer{w}
		}
		if l.Own[route.GetName()] {
			next.ServeHTTP(w, r)
			return
		}
		v, changes, err := l.Versions(r.Context(), editor)
		if err != nil {
			l.Error(w, r, err)
			return
		}
		tag := tagOf(r, route.GetName(), changes, editor)
		w.Header().Add("Vary", "Accept, Cookie, Authorization")
		w.Header().Set("Cache-Control", l.CacheControl(editor))
		if web.NotModified(w, r, tag) {
			return
		}
		r = r.WithContext(context.WithValue(r.Context(), photosVersionKey{}, v))
		if editor || r.Method == http.MethodHead || l.Cache == nil {
			next.ServeHTTP(w, r)
			return
		}
		if resp := l.Cache.Get(changes, tag); resp != nil {
			writeKept(w, resp)
			return
		}
		if !l.Cache.Admit(changes, tag) {
			next.ServeHTTP(w, r) // asked once so far: not copied
			return
		}
		rec := &recorder{ResponseWriter: w, limit: int(min(l.Cache.MaxEntry(), maxKept))}
		next.ServeHTTP(rec, r)
		if resp := rec.finished(web.AcceptsGzip(r)); resp != nil {
			l.Cache.Put(changes, tag, resp)
		}
	})
}

// tagOf is the ETag of the answer to r at the archive's count of
// changes: a hash of everything the answer depends on, and of the
// reader's credentials for an editor (whose pages are theirs).
func tagOf(r *http.Request, route string, changes int64, editor bool) string {
	h := sha256.New()
	l := i18n.From(r.Context())
	for _, part := range []string{bootID, route, r.URL.Path, web.NormalQuery(r.URL.Query()), string(l.Lang), l.Digits(), r.Header.Get("Accept")} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	if editor {
		h.Write([]byte(r.Header.Get("Authorization")))
		if c, err := r.Cookie(session.Cookie); err == nil {
			h.Write([]byte(c.Value))
		}
	}
	return web.ETagFor(r, `"v`+strconv.FormatInt(changes, 10)+"-"+hex.EncodeToString(h.Sum(nil)[:10])+`"`)
}

// CacheControl says who may keep an answer: a reader's, any cache for
// SharedMaxAge (browsers ask again each time, and get a 304); an
// editor's, their browser alone, asking again each time.
func (l *Layer) CacheControl(editor bool) string {
	if editor {
		return "private, no-cache"
	}
	if l.SharedMaxAge <= 0 {
		return "no-cache"
	}
	return "public, max-age=0, s-maxage=" + strconv.Itoa(int(l.SharedMaxAge/time.Second))
}

// PhotosVersion is the archive's version of the photos the layer read
// for r, and whether it read one (a request that did not come through
// it, as a test's calling a handler, has none).
func PhotosVersion(r *http.Request) (int64, bool) {
	v, ok := r.Context().Value(photosVersionKey{}).(int64)
	return v, ok
}

// writeKept writes a kept answer; its encoding is already the one the
// reader takes, which the compression layer leaves alone.
func writeKept(w http.ResponseWriter, resp *respcache.Response) {
	h := w.Header()
	for _, kv := range resp.Header {
		h[kv[0]] = append(h[kv[0]], kv[1])
	}
	h.Set("Content-Length", strconv.Itoa(len(resp.Body)))
	w.WriteHeader(resp.Status)
	w.Write(resp.Body)
}

// privateAnswer keeps an editor's answer from shared caches whatever its
// handler said (an image's "public, immutable" becomes "private,
// immutable"): what an editor is answered may be theirs alone.
type privateAnswer struct{ http.ResponseWriter }

func (p privateAnswer) WriteHeader(code int) {
	h := p.Header()
	h.Set("Cache-Control", private(h.Get("Cache-Control")))
	p.ResponseWriter.WriteHeader(code)
}

func (p privateAnswer) Write(b []byte) (int, error) {
	h := p.Header()
	h.Set("Cache-Control", private(h.Get("Cache-Control")))
	return p.ResponseWriter.Write(b)
}

func (p privateAnswer) Flush() {
	if f, ok := p.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (p privateAnswer) Unwrap() http.ResponseWriter { return p.ResponseWriter }

// private is a Cache-Control value without what lets a shared cache keep
// the answer.
func private(cc string) string {
	out := []string{"private"}
	for _, d := range strings.Split(cc, ",") {
		d = strings.TrimSpace(d)
		if d == "" || d == "public" || d == "private" || strings.HasPrefix(d, "s-maxage") {
			continue
		}
		out = append(out, d)
	}
	if len(out) == 1 {
		out = append(out, "no-cache")
	}
	return strings.Join(out, ", ")
}

// recorder copies an answer as it is written, up to limit bytes, with
// the headers its handler set (before the compression layer adds its
// own).
type recorder struct {
	http.ResponseWriter
	limit  int
	status int
	header http.Header
	body   []byte
	over   bool
}

func (rec *recorder) WriteHeader(code int) {
	if rec.status == 0 {
		rec.status, rec.header = code, rec.Header().Clone()
	}
	rec.ResponseWriter.WriteHeader(code)
}

func (rec *recorder) Write(p []byte) (int, error) {
	if rec.status == 0 {
		rec.WriteHeader(http.StatusOK)
	}
	if !rec.over {
		if len(rec.body)+len(p) > rec.limit {
			rec.over, rec.body = true, nil
		} else {
			rec.body = append(rec.body, p...)
		}
	}
	return rec.ResponseWriter.Write(p)
}

func (rec *recorder) Flush() {
	if f, ok := rec.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (rec *recorder) Unwrap() http.ResponseWriter { return rec.ResponseWriter }

// finished returns the answer to keep, or nil for one that is not to be
// kept: not a 200, too large, setting a cookie, or private. A text answer
// for a reader who takes gzip is kept compressed, as it is sent.
func (rec *recorder) finished(gzipped bool) *respcache.Response {
	h := rec.header
	cc := h.Get("Cache-Control")
	if rec.status != http.StatusOK || rec.over || h.Get("Set-Cookie") != "" || strings.Contains(cc, "private") || strings.Contains(cc, "no-store") {
		return nil
	}
	resp := &respcache.Response{Status: rec.status, Body: rec.body}
	if gzipped && h.Get("Content-Encoding") == "" && middleware.Compressible(h.Get("Content-Type")) {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzjoin.Level)
		zw.Write(rec.body)
		zw.Close()
		resp.Body = buf.Bytes()
		resp.Header = append(resp.Header, [2]string{"Content-Encoding", "gzip"})
	}
	for name, values := range h {
		switch name {
		case "Date", "Content-Length", "Etag", "Cache-Control", "Vary":
			continue // set again for each answer
		}
		for _, v := range values {
			resp.Header = append(resp.Header, [2]string{name, v})
		}
	}
	return resp
}

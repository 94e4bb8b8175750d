package web

import (
	"io"
	"net/http"
	"strings"
	"time"
)

// AcceptsGzip reports whether the request takes a gzipped answer.
func AcceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.TrimSpace(name) == "gzip" && strings.TrimSpace(q) != "q=0" {
			return true
		}
	}
	return false
}

// maxRanges is how many byte ranges a request may ask for at once; a
// client that asks for more gets the whole file. Each range of a
// multipart answer carries its own headers: 12,000 one-byte ranges of a
// 48 KB file made a 1.66 MB answer.
const maxRanges = 16

// ServeContent is http.ServeContent with Range capped: a request for more
// than maxRanges ranges gets the whole content.
func ServeContent(w http.ResponseWriter, r *http.Request, name string, mod time.Time, content io.ReadSeeker) {
	if strings.Count(r.Header.Get("Range"), ",") >= maxRanges {
		r.Header.Del("Range")
	}
	http.ServeContent(w, r, name, mod, content)
}

// ETagFor is the ETag of a representation: a response gzipped for the
// client is another representation than the plain one, so it has a tag of
// its own (RFC 9110 §8.8.3).
func ETagFor(r *http.Request, tag string) string {
	if AcceptsGzip(r) {
		return strings.TrimSuffix(tag, `"`) + `-gzip"`
	}
	return tag
}

// NotModified sets the response's ETag to tag and answers 304 when the
// request has it already (If-None-Match), before any work is done for
// the body; it returns true when it answered.
func NotModified(w http.ResponseWriter, r *http.Request, tag string) bool {
	w.Header().Set("ETag", tag)
	if !MatchesETag(r.Header.Get("If-None-Match"), tag) {
		return false
	}
	w.WriteHeader(http.StatusNotModified)
	return true
}

// MatchesETag reports whether an If-None-Match header names tag (weakly,
// as RFC 9110 §13.1.2 compares).
func MatchesETag(ifNoneMatch, tag string) bool {
	if ifNoneMatch == "" {
		return false
	}
	for _, m := range strings.Split(ifNoneMatch, ",") {
		if m = strings.TrimSpace(m); m == tag || m == "W/"+tag || m == "*" {
			return true
		}
	}
	return false
}

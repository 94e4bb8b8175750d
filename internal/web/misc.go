package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/syriamap/syriamap/internal/photo"
)

// MarshalJSON is json.Marshal without escaping &, < and > in strings: the
// answers are JSON, never HTML, and links read as they are. It ends in a
// newline.
func MarshalJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(v)
	return b.Bytes(), err
}

func NullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func AcceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.TrimSpace(name) == "gzip" && strings.TrimSpace(q) != "q=0" {
			return true
		}
	}
	return false
}

// LongDate writes a date at its precision: "19 September 2016",
// "September 2016", "2016"; "" when undated.
func LongDate(d photo.Date) string {
	switch d.Precision {
	case "day":
		return fmt.Sprintf("%d %s %d", d.Day, time.Month(d.Month), d.Year)
	case "month":
		return fmt.Sprintf("%s %d", time.Month(d.Month), d.Year)
	case "year":
		return strconv.Itoa(d.Year)
	}
	return ""
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

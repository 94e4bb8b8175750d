package web

import (
	"bytes"
	"encoding/json"
	"fmt"
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

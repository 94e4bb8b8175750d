package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

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

// NullIfEmpty is s, or nil (JSON's null) when it is "".
func NullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// sizeText writes a byte count for people: "16 KB", "4 MB".
func sizeText(n int64) string { return SizeText(n) }

// SizeText writes a limit in bytes for people: "4 GB", "16 MB", "64 KB"
// (of 1,024).
func SizeText(n int64) string {
	if n >= 1<<30 {
		return fmt.Sprintf("%d GB", n>>30)
	}
	if n >= 1<<20 {
		return fmt.Sprintf("%d MB", n>>20)
	}
	return fmt.Sprintf("%d KB", n>>10)
}

// DecodeJSON reads a request's JSON object of up to limit bytes into v,
// naming the field at fault. The body must say it is JSON and hold the
// one object and nothing after it: a body that is something else is a
// client's mistake to report, not to read around.
func DecodeJSON(r *http.Request, v any, limit int64) error {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return photo.Errorf(photo.EUnsupported, "the body must be JSON, sent with Content-Type: application/json (not %q)", r.Header.Get("Content-Type"))
	}
	body := &io.LimitedReader{R: r.Body, N: limit + 1}
	dec := json.NewDecoder(body)
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if body.N == 0 { // it went on past the limit: say so, not "unexpected EOF"
		return photo.Errorf(photo.ETooLarge, "the body is larger than %s; send at most that", sizeText(limit))
	}
	if err != nil {
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &te):
			return &photo.Error{Code: photo.EInvalid, Message: fmt.Sprintf("%s: want a %s", te.Field, te.Type), Parameter: te.Field}
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			field := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
			return &photo.Error{Code: photo.EInvalid, Message: fmt.Sprintf("%s: no such field", field), Parameter: field}
		}
		return photo.Errorf(photo.EInvalid, "the body is not a JSON object: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return photo.Errorf(photo.EInvalid, "the body has more after its JSON object; send one object")
	}
	return nil
}

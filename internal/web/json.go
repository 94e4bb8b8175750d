package web

import (
	"bytes"
	"encoding/json"
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

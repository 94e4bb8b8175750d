package ingest

import (
	"bytes"
	"encoding/json"
	"io"
	"iter"
	"slices"
)

func readJSONL(r io.Reader, name string) iter.Seq2[Record, error] {
	return func(yield func(Record, error) bool) {
		sc := scanLines(r)
		line := 0
		for sc.Scan() {
			line++
			b := bytes.TrimSpace([]byte(trimBOMs(sc.Text())))
			if len(b) == 0 {
				continue
			}
			if !validUTF8(string(b)) {
				yield(Record{}, lineError(name, line, "not UTF-8 text"))
				return
			}
			var obj map[string]json.RawMessage
			if err := json.Unmarshal(b, &obj); err != nil {
				yield(Record{}, lineError(name, line, "not a JSON object: %v", err))
				return
			}
			// Each field's key: the first of its names (fieldNames) the
			// object has.
			keys, ranks := map[string]string{}, map[string]int{}
			var found []string
			for k := range obj {
				found = append(found, k)
				if field, rank, ok := fieldOf(k); ok {
					if r, have := ranks[field]; !have || rank < r {
						keys[field], ranks[field] = k, rank
					}
				}
			}
			if _, ok := keys["caption"]; !ok {
				slices.Sort(found)
				yield(Record{}, noCaption(name, line, "field", found))
				return
			}
			rec := Record{Line: line}
			var bad error
			get := func(field string) (string, bool) {
				key := keys[field]
				raw, ok := obj[key]
				if !ok || string(raw) == "null" {
					return "", false
				}
				var s string
				if err := json.Unmarshal(raw, &s); err == nil {
					return s, true
				}
				var n json.Number
				if err := json.Unmarshal(raw, &n); err == nil {
					return n.String(), true
				}
				if bad == nil {
					bad = lineError(name, line, "%s must be a string or a number, not %s", key, raw)
				}
				return "", false
			}
			err := fill(&rec, get, name)
			if bad != nil {
				err = bad
			}
			if err != nil {
				yield(Record{}, err)
				return
			}
			if !yield(rec, nil) {
				return
			}
		}
		if err := sc.Err(); err != nil {
			yield(Record{}, scanError(name, line, err))
		}
	}
}

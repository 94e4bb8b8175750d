package ingest

import (
	"encoding/csv"
	"errors"
	"io"
	"iter"
	"strings"
	"unicode/utf8"

	"github.com/syriamap/syriamap/internal/photo"
)

func validUTF8(s string) bool { return utf8.ValidString(s) }

func readCSV(r io.Reader, name string) iter.Seq2[Record, error] {
	return func(yield func(Record, error) bool) {
		tail := &lastByte{r: r}
		// encoding/csv holds a whole record before it returns it: the
		// reader under it refuses to give more than maxLine bytes to one,
		// so that a 300 MB field costs no more than its first megabyte.
		guard := &recordGuard{r: tail}
		cr := csv.NewReader(guard)
		cr.FieldsPerRecord = -1
		cr.ReuseRecord = true
		header, err := cr.Read()
		guard.n = 0
		if errors.Is(err, errRecordTooLong) {
			yield(Record{}, lineError(name, 1, "the header is longer than %d bytes", maxLine))
			return
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = errors.New("the file is empty; a header row with a caption column is needed")
			}
			yield(Record{}, csvError(name, 1, err))
			return
		}
		// Each field's column: the first of its names (fieldNames) the
		// header has.
		cols, ranks, seen := map[string]int{}, map[string]int{}, map[string]int{}
		for i, h := range header {
			h = strings.ToLower(strings.TrimSpace(trimBOMs(h)))
			if !validUTF8(h) {
				yield(Record{}, lineError(name, 1, "the header is not UTF-8 text"))
				return
			}
			if j, dup := seen[h]; dup && h != "" {
				yield(Record{}, lineError(name, 1, "the header has a %s column twice (columns %d and %d)", h, j+1, i+1))
				return
			}
			seen[h] = i
			field, rank, ok := fieldOf(h)
			if r, have := ranks[field]; !ok || have && r <= rank {
				continue
			}
			cols[field], ranks[field] = i, rank
		}
		if _, ok := cols["caption"]; !ok {
			yield(Record{}, noCaption(name, 1, "column in the header", header))
			return
		}
		next := 2 // the line the next record starts on, at least
		for {
			row, err := cr.Read()
			guard.n = 0
			if errors.Is(err, errRecordTooLong) {
				yield(Record{}, lineError(name, next, "a record from here on is longer than %d bytes (a caption has at most %d)", maxLine, MaxCaption))
				return
			}
			if errors.Is(err, io.EOF) {
				if tail.n > 0 && tail.last != '\n' && tail.last != '\r' {
					// Every CSV writer ends its last record with a line
					// ending; a file without one was most likely cut
					// short, inside the last value (lon "36.", a name
					// "Some").
					line, _ := cr.FieldPos(0)
					yield(Record{}, lineError(name, line, "the file ends inside this record, without a line ending: it may have been cut short (if it is whole, end it with a newline)"))
				}
				return
			}
			if err != nil {
				line := 0
				var pe *csv.ParseError
				if errors.As(err, &pe) {
					line = pe.StartLine
				}
				yield(Record{}, csvError(name, line, err))
				return
			}
			line, _ := cr.FieldPos(0)
			if len(row) > 0 {
				last, _ := cr.FieldPos(len(row) - 1)
				next = last + 1
			}
			for _, v := range row {
				if !validUTF8(v) {
					yield(Record{}, lineError(name, line, "not UTF-8 text"))
					return
				}
			}
			rec := Record{Line: line}
			get := func(key string) (string, bool) {
				i, ok := cols[key]
				if !ok || i >= len(row) {
					return "", false
				}
				return row[i], true
			}
			if err := fill(&rec, get, name); err != nil {
				yield(Record{}, err)
				return
			}
			if !yield(rec, nil) {
				return
			}
		}
	}
}

func csvError(name string, line int, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return photo.Errorf(photo.EInvalid, "%s:%d: %v", name, line, err)
}

// errRecordTooLong stops a CSV record at maxLine bytes.
var errRecordTooLong = errors.New("record too long")

// recordGuard gives at most maxLine bytes (and the CSV reader's read-ahead)
// between two resets of n, one per record.
type recordGuard struct {
	r io.Reader
	n int
}

func (g *recordGuard) Read(p []byte) (int, error) {
	if g.n > maxLine {
		return 0, errRecordTooLong
	}
	n, err := g.r.Read(p)
	g.n += n
	return n, err
}

// lastByte remembers the last byte read through it.
type lastByte struct {
	r    io.Reader
	last byte
	n    int64
}

func (l *lastByte) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	if n > 0 {
		l.last = p[n-1]
		l.n += int64(n)
	}
	return n, err
}

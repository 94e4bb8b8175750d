// Package ingest reads the files people import into syriamap: plain text
// (captions as blank-line separated paragraphs, the seed format), CSV with a
// header row, and JSON lines. It checks each record and reports bad input
// with the file and line, and does no parsing of the captions themselves.
package ingest

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"iter"
	"path/filepath"
	"strings"

	"github.com/syriamap/syriamap/internal/geoparse/caption"
	"github.com/syriamap/syriamap/internal/photo"
)

// Record is one photo as a file gives it. Overrides are nil when the file
// does not give them; they win over what the caption reader finds.
type Record struct {
	Line    int // the line the record starts on
	Caption string
	// Ref is the file's own id for the photo, Label its source column.
	Ref, Label          string
	ImageURL, ImagePath string
	Date                *photo.Date
	// Published is the day the page that shows the photo was published,
	// when the file gives it (its published column, else the date in the
	// address of its source page or image, /2016/09/24/): the caption
	// reader's reference date, the
	// year of a caption's day and month written without one (see
	// caption.ParseAt). It is no date of the photo's.
	Published            *photo.Date
	Photographer, Agency *string
	// Point is [lon, lat], given together.
	Point *[2]float64
	// Warnings say what in the file may not be what its editor meant
	// ("f.txt:2: two captions may be joined into one photo: …"), each
	// naming its file and line; the record is imported all the same.
	Warnings []string
}

// Formats the readers know, by name.
const (
	Text  = "txt"
	CSV   = "csv"
	JSONL = "jsonl"
)

// FormatOf returns the format of a file by its extension: .txt, .csv,
// .jsonl or .ndjson. It returns an invalid error naming the file for any
// other.
func FormatOf(path string) (string, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".txt", ".text":
		return Text, nil
	case ".csv":
		return CSV, nil
	case ".jsonl", ".ndjson":
		return JSONL, nil
	}
	return "", photo.Errorf(photo.EInvalid, "%s: cannot tell the format from the extension (want .txt, .csv, .jsonl or .ndjson; or pass --format)", path)
}

// MaxCaption is the longest caption a file may hold, in bytes: real ones
// are a few hundred; a longer one is a mistake (a whole article, a binary
// file) that would cost memory and time out of all proportion.
const MaxCaption = 64 << 10

// maxLine is the longest line the text and JSON-lines readers take.
const maxLine = 1 << 20

// Read yields the records of r, read as format; name is the file name used
// in errors. It stops at the first bad record with an error naming the file
// and line. Each caption of a paragraph that holds two run together (the
// seed format allows it) is a record of its own, on the paragraph's line.
// UTF-8 byte-order marks at the start of the file, or of a line of a text
// or JSON-lines file (files joined end to end), are not part of it. A CSV
// file must end its last record with a line ending: one that does not may
// have been cut short inside it.
func Read(r io.Reader, name, format string) iter.Seq2[Record, error] {
	r = skipBOM(r)
	switch format {
	case Text:
		return readText(r, name)
	case CSV:
		return readCSV(r, name)
	case JSONL:
		return readJSONL(r, name)
	}
	return func(yield func(Record, error) bool) {
		yield(Record{}, photo.Errorf(photo.EInvalid, "%s: unknown format %q (want txt, csv or jsonl)", name, format))
	}
}

// lineError is an invalid-input error at a file's line.
func lineError(name string, line int, format string, args ...any) error {
	return photo.Errorf(photo.EInvalid, "%s:%d: %s", name, line, fmt.Sprintf(format, args...))
}

// skipBOM drops a UTF-8 byte-order mark from the start of r: editors on
// Windows write one, and it is not text (left in, it would make the first
// caption another photo than the same caption from a file without one).
// A file saved twice by such an editor can begin with two.
func skipBOM(r io.Reader) io.Reader {
	br := bufio.NewReader(r)
	for {
		if b, err := br.Peek(3); err != nil || string(b) != bom {
			return br
		}
		br.Discard(3)
	}
}

const bom = "\ufeff"

// trimBOMs drops byte-order marks from the start of a line: files joined
// end to end (cat a.jsonl b.jsonl) keep the second one's in the middle.
func trimBOMs(line string) string {
	for strings.HasPrefix(line, bom) {
		line = line[len(bom):]
	}
	return line
}

// scanLines is a line scanner that takes lines of up to maxLine bytes.
func scanLines(r io.Reader) *bufio.Scanner {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), maxLine)
	return sc
}

// scanError is the error of a line scanner that stopped after line.
func scanError(name string, line int, err error) error {
	if errors.Is(err, bufio.ErrTooLong) {
		return lineError(name, line+1, "the line is longer than %d bytes", maxLine)
	}
	return lineError(name, line+1, "reading: %v", err)
}

func readText(r io.Reader, name string) iter.Seq2[Record, error] {
	return func(yield func(Record, error) bool) {
		sc := scanLines(r)
		var para []string
		start, line, size := 0, 0, 0
		flush := func() bool {
			defer func() { para, size = para[:0], 0 }()
			if len(para) == 0 {
				return true
			}
			captions := caption.Split(strings.Join(para, "\n"))
			warnings := joinedWarnings(name, start, para, captions)
			for k, text := range captions {
				if !yield(Record{Line: start, Caption: text, Warnings: warnings[k]}, nil) {
					return false
				}
			}
			return true
		}
		for sc.Scan() {
			line++
			text := trimBOMs(sc.Text())
			if !validUTF8(text) {
				yield(Record{}, lineError(name, line, "not UTF-8 text"))
				return
			}
			if strings.IndexByte(text, 0) >= 0 {
				yield(Record{}, lineError(name, line, "the caption holds a NUL byte (U+0000), which no text has: the file may be binary or damaged"))
				return
			}
			if strings.TrimSpace(text) == "" {
				if !flush() {
					return
				}
				continue
			}
			if len(para) == 0 {
				start = line
			}
			if size += len(text) + 1; size > MaxCaption {
				yield(Record{}, lineError(name, start, "the caption is longer than %d bytes (a caption ends at a blank line)", MaxCaption))
				return
			}
			para = append(para, text)
		}
		if err := sc.Err(); err != nil {
			yield(Record{}, scanError(name, line, err))
			return
		}
		flush()
	}
}

// fieldNames are the names a CSV column or a JSON key may give each
// field by, as files people have name them (exports of other tools,
// newsrooms' spreadsheets, Arabic headers), compared without case; a
// file that gives a field by several names is read by the first here.
var fieldNames = map[string][]string{
	"caption":      {"caption", "description", "text", "headline", "caption/abstract", "التعليق", "الوصف", "النص", "العنوان"},
	"id":           {"id", "photo_id", "المعرف"},
	"image_url":    {"image_url"},
	"image_path":   {"image_path"},
	"source":       {"source", "المصدر"},
	"date":         {"date", "date_created", "datecreated", "التاريخ"},
	"published":    {"published", "date_published", "published_at", "datepublished", "تاريخ النشر"},
	"photographer": {"photographer", "byline", "by-line", "creator", "المصور"},
	"agency":       {"agency", "credit", "الوكالة"},
	"lat":          {"lat", "latitude", "خط العرض"},
	"lon":          {"lon", "lng", "long", "longitude", "خط الطول"},
}

// fieldOf names the field a column or key gives, and how early among
// that field's names it comes (0 first); ok is false for another.
var fieldOf = func() func(name string) (field string, rank int, ok bool) {
	byName := map[string][2]any{}
	for field, names := range fieldNames {
		for i, n := range names {
			byName[n] = [2]any{field, i}
		}
	}
	return func(name string) (string, int, bool) {
		v, ok := byName[strings.ToLower(strings.TrimSpace(name))]
		if !ok {
			return "", 0, false
		}
		return v[0].(string), v[1].(int), true
	}
}()

// noCaption refuses a file (or a JSON line) that gives no caption,
// naming the names looked for and those it found.
func noCaption(name string, line int, what string, found []string) error {
	if len(found) == 0 {
		found = []string{"none"}
	}
	return lineError(name, line, "no caption %s: looked for %s; found %s", what, strings.Join(fieldNames["caption"], ", "), strings.Join(found, ", "))
}

// fill checks a record's values, given by field name, and fills rec.
func fill(rec *Record, get func(string) (string, bool), name string) error {
	at := func(format string, args ...any) error { return lineError(name, rec.Line, format, args...) }
	c, _ := get("caption")
	if len(c) > MaxCaption {
		return at("the caption is %d bytes long; at most %d", len(c), MaxCaption)
	}
	for _, key := range []string{"caption", "photographer", "agency", "id", "source"} {
		if v, _ := get(key); strings.IndexByte(v, 0) >= 0 {
			return at("the %s holds a NUL byte (U+0000), which no text has: the file may be binary or damaged", key)
		}
	}
	// The fields that name a record or a file elsewhere are names: a
	// control character or a bidirectional override in them would be
	// shown as it is on the photo's page (photo.CheckName).
	for _, key := range []string{"id", "image_path"} {
		if v, _ := get(key); v != "" {
			if err := photo.CheckName(key, v); err != nil {
				return at("%s", photo.ErrorMessage(err))
			}
		}
	}
	rec.Caption = strings.Join(strings.Fields(c), " ")
	if rec.Caption == "" {
		return at("the caption is empty")
	}
	rec.Ref, _ = get("id")
	rec.Label, _ = get("source")
	rec.ImageURL, _ = get("image_url")
	rec.ImagePath, _ = get("image_path")
	if v, ok := get("date"); ok && strings.TrimSpace(v) != "" {
		d, err := photo.ParseDate(v)
		if err != nil {
			return at("%v", err)
		}
		rec.Date = &d
	}
	if err := published(rec, get); err != nil {
		return at("%v", err)
	}
	for _, f := range []struct {
		key string
		dst **string
	}{{"photographer", &rec.Photographer}, {"agency", &rec.Agency}} {
		if v, ok := get(f.key); ok && strings.TrimSpace(v) != "" {
			v = strings.TrimSpace(v)
			*f.dst = &v
		}
	}
	lat, hasLat := get("lat")
	lon, hasLon := get("lon")
	hasLat, hasLon = hasLat && strings.TrimSpace(lat) != "", hasLon && strings.TrimSpace(lon) != ""
	switch {
	case hasLat != hasLon:
		return at("lat and lon go together: give both or neither")
	case hasLat:
		la, err1 := photo.ParseDecimal(lat)
		lo, err2 := photo.ParseDecimal(lon)
		switch {
		case err1 != nil:
			return at("lat %q is not a number (want a decimal such as 36.2)", lat)
		case err2 != nil:
			return at("lon %q is not a number (want a decimal such as 37.16)", lon)
		case la < -90 || la > 90:
			return at("lat %v is out of range (−90 to 90)", la)
		case lo < -180 || lo > 180:
			return at("lon %v is out of range (−180 to 180)", lo)
		}
		rec.Point = &[2]float64{lo, la}
	}
	return nil
}

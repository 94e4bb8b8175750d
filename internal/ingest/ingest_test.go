package ingest

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/photo"
)

func readAll(t *testing.T, text, format string) ([]Record, error) {
	t.Helper()
	var out []Record
	for r, err := range Read(strings.NewReader(text), "f."+format, format) {
		if err != nil {
			return out, err
		}
		out = append(out, r)
	}
	return out, nil
}

func TestText(t *testing.T) {
	doc := "First caption in Aleppo,\nSyria. (Photo by A B/Reuters)\n\n\n" +
		"Second in Homs. (Photo by C D/Reuters)Third in Idlib. (Photo by E F/AFP)\n\nFourth, at the end"
	recs, err := readAll(t, doc, Text)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range recs {
		got = append(got, fmt.Sprintf("%d:%s", r.Line, r.Caption))
	}
	want := []string{"1:First caption in Aleppo, Syria. (Photo by A B/Reuters)", "5:Second in Homs. (Photo by C D/Reuters)",
		"5:Third in Idlib. (Photo by E F/AFP)", "7:Fourth, at the end"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func TestCSV(t *testing.T) {
	doc := "\ufeffID,Caption,date,photographer,agency,lat,lon,image_url,source,extra\n" +
		"a1,\"A caption\nover two lines\",2016-09,Jane Doe,AP,36.2,37.16,http://x/1.jpg,archive,ignored\n" +
		"a2,Another caption,,,,,,,,\n"
	recs, err := readAll(t, doc, CSV)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("%d records", len(recs))
	}
	r := recs[0]
	if r.Line != 2 || r.Caption != "A caption over two lines" || r.Ref != "a1" || r.Label != "archive" || r.ImageURL != "http://x/1.jpg" ||
		r.Date == nil || r.Date.String() != "2016-09" || *r.Photographer != "Jane Doe" || *r.Agency != "AP" || *r.Point != [2]float64{37.16, 36.2} {
		t.Errorf("record 1 = %+v", r)
	}
	if r := recs[1]; r.Line != 4 || r.Date != nil || r.Photographer != nil || r.Point != nil {
		t.Errorf("record 2 = %+v", r)
	}
}

func TestJSONL(t *testing.T) {
	doc := `{"caption": "A caption", "lat": 36.2, "lon": "37.16", "date": "2016-09-19", "id": 7}` + "\n\n" +
		`{"caption": "Another", "agency": "Reuters", "image_path": "a/b.jpg"}` + "\n"
	recs, err := readAll(t, doc, JSONL)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 || recs[0].Ref != "7" || *recs[0].Point != [2]float64{37.16, 36.2} || recs[1].Line != 3 || *recs[1].Agency != "Reuters" || recs[1].ImagePath != "a/b.jpg" {
		t.Errorf("records = %+v", recs)
	}
}

// TestCaptionFieldNames (issue 58, 4): caption files as people have
// them: the caption under caption, description, text, headline or an
// Arabic header, any case; of several, the first of fieldNames; the
// other fields by their usual other names too.
func TestCaptionFieldNames(t *testing.T) {
	for _, c := range []struct {
		name, format, doc     string
		caption, photographer string
		point                 [2]float64
	}{
		{"jsonl text", JSONL, `{"text": "A boy in Douma", "id": 1}` + "\n", "A boy in Douma", "", [2]float64{}},
		{"jsonl Description and headline", JSONL, `{"headline": "Douma", "Description": "A boy in Douma", "byline": "Bassam Khabieh"}` + "\n",
			"A boy in Douma", "Bassam Khabieh", [2]float64{}},
		{"jsonl caption and text", JSONL, `{"text": "other", "caption": "A boy in Douma"}` + "\n", "A boy in Douma", "", [2]float64{}},
		{"csv Text", CSV, "ID,Text,Latitude,Longitude\n1,A boy in Douma,33.57,36.40\n", "A boy in Douma", "", [2]float64{36.40, 33.57}},
		{"csv headline", CSV, "headline,creator\nA boy in Douma,Bassam Khabieh\n", "A boy in Douma", "Bassam Khabieh", [2]float64{}},
		{"csv Arabic headers", CSV, "التعليق,المصور\nطفل في دوما,بسام خبية\n", "طفل في دوما", "بسام خبية", [2]float64{}},
		{"csv with a BOM", CSV, "\ufefftext\nA boy in Douma\n", "A boy in Douma", "", [2]float64{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			recs, err := readAll(t, c.doc, c.format)
			if err != nil || len(recs) != 1 {
				t.Fatalf("%v, %d records", err, len(recs))
			}
			r := recs[0]
			photographer := ""
			if r.Photographer != nil {
				photographer = *r.Photographer
			}
			var point [2]float64
			if r.Point != nil {
				point = *r.Point
			}
			if r.Caption != c.caption || photographer != c.photographer || point != c.point {
				t.Errorf("caption %q, photographer %q, point %v; want %q, %q, %v", r.Caption, photographer, point, c.caption, c.photographer, c.point)
			}
		})
	}
}

func TestBadInput(t *testing.T) {
	tests := []struct {
		name, format, doc, want string
	}{
		{"csv without caption", CSV, "id,url\n1,hello\n", "f.csv:1: no caption column in the header: looked for caption, description, text, headline, caption/abstract, التعليق, الوصف, النص, العنوان; found id, url"},
		{"csv empty", CSV, "", "f.csv:1: the file is empty"},
		{"csv bad quote", CSV, "caption\n\"open\nok\n", "f.csv:2:"},
		{"csv lat out of range", CSV, "caption,lat,lon\nA,91,36\n", "f.csv:2: lat 91 is out of range"},
		{"csv lon not a number", CSV, "caption,lat,lon\nA,36,east\n", `f.csv:2: lon "east" is not a number`},
		{"csv lat alone", CSV, "caption,lat\nA,36\n", "f.csv:2: lat and lon go together"},
		{"csv bad date", CSV, "caption,date\nA,2016-02-30\n", "f.csv:2: date \"2016-02-30\": no such day"},
		{"csv empty caption", CSV, "caption,id\n,1\n", "f.csv:2: the caption is empty"},
		{"jsonl malformed", JSONL, "{\"caption\": \"A\"}\n{\"caption\": \n", "f.jsonl:2: not a JSON object"},
		{"jsonl not an object", JSONL, "[1,2]\n", "f.jsonl:1: not a JSON object"},
		{"jsonl bad field type", JSONL, `{"caption": "A", "lat": [1]}` + "\n", "f.jsonl:1: lat must be a string or a number"},
		{"jsonl no caption", JSONL, `{"id": "x", "body": "y"}` + "\n", "f.jsonl:1: no caption field: looked for caption, description, text, headline, caption/abstract, التعليق, الوصف, النص, العنوان; found body, id"},
		{"jsonl empty text", JSONL, `{"text": " "}` + "\n", "f.jsonl:1: the caption is empty"},
		{"text not UTF-8", Text, "good line\n\nbad \xff line\n", "f.txt:3: not UTF-8 text"},
		{"csv not UTF-8", CSV, "caption\nbad \xff\n", "f.csv:2: not UTF-8 text"},
		{"csv hex float", CSV, "caption,lat,lon\nA,0x1p5,36\n", `f.csv:2: lat "0x1p5" is not a number`},
		{"csv digit separators", CSV, "caption,lat,lon\nA,35,3_6\n", `f.csv:2: lon "3_6" is not a number`},
		{"csv NaN", CSV, "caption,lat,lon\nA,NaN,36\n", `f.csv:2: lat "NaN" is not a number`},
		{"csv Inf", CSV, "caption,lat,lon\nA,35,Inf\n", `f.csv:2: lon "Inf" is not a number`},
		{"csv duplicate column", CSV, "caption,lat,Caption\nA,1,B\n", "f.csv:1: the header has a caption column twice"},
		{"csv caption too long", CSV, "caption\n" + strings.Repeat("x", MaxCaption+1) + "\n", "f.csv:2: the caption is 65537 bytes long"},
		{"text caption too long", Text, "ok\n\n" + strings.Repeat(strings.Repeat("x", 1000)+"\n", 70), "f.txt:3: the caption is longer than"},
		{"text line too long", Text, strings.Repeat("x", 2<<20), "f.txt:1: the line is longer than"},
		{"jsonl line too long", JSONL, `{"caption": "` + strings.Repeat("x", 2<<20) + `"}`, "f.jsonl:1: the line is longer than"},
		{"csv record too long", CSV, "caption,id\nok,1\n\"" + strings.Repeat("x\n", 1<<20) + "\",2\n", "f.csv:3: a record from here on is longer than"},
		{"csv header too long", CSV, strings.Repeat("x", 2<<20) + "\n", "f.csv:1: the header is longer than"},
		{"csv NUL in a caption", CSV, "caption\nA\x00B\n", "f.csv:2: the caption holds a NUL byte"},
		{"csv NUL in a credit", CSV, "caption,agency\nA,AF\x00P\n", "f.csv:2: the agency holds a NUL byte"},
		{"jsonl NUL", JSONL, `{"caption": "A\u0000B"}` + "\n", "f.jsonl:1: the caption holds a NUL byte"},
		{"text NUL", Text, "A\x00B\n", "f.txt:1: the caption holds a NUL byte"},
		// Fields that name a file or a record elsewhere are names (issue 65, 2).
		{"csv image_path with ESC", CSV, "caption,image_path\nA,a\x1b[2Jb.jpg\n", "f.csv:2: image_path: the image_path holds a control character"},
		{"jsonl image_path with a newline", JSONL, `{"caption": "A", "image_path": "a\nb.jpg"}` + "\n", "f.jsonl:1: image_path: the image_path holds a control character"},
		{"csv id with an override", CSV, "caption,id\nA,gpj\u202e.exe\n", "f.csv:2: id: the id holds a bidirectional override"},
		{"jsonl id with NUL", JSONL, `{"caption": "A", "id": "a\u0000b"}` + "\n", "f.jsonl:1: the id holds a NUL byte"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := readAll(t, tt.doc, tt.format)
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to begin %q", err, tt.want)
			}
			if photo.ErrorCode(err) != photo.EInvalid {
				t.Errorf("code %s, want invalid", photo.ErrorCode(err))
			}
		})
	}
}

func TestFormatOf(t *testing.T) {
	for path, want := range map[string]string{"a.txt": Text, "B.CSV": CSV, "c.jsonl": JSONL, "d.ndjson": JSONL} {
		if got, err := FormatOf(path); got != want || err != nil {
			t.Errorf("FormatOf(%s) = %s, %v", path, got, err)
		}
	}
	if _, err := FormatOf("e.xlsx"); err == nil || !strings.Contains(err.Error(), "e.xlsx") {
		t.Errorf("FormatOf(e.xlsx) = %v", err)
	}
}

// TestByteOrderMarks: a UTF-8 BOM that editors put at the start of a file
// is not text, in any format, before a quoted header too.
func TestByteOrderMarks(t *testing.T) {
	for _, tt := range []struct{ format, doc string }{
		{Text, "\ufeffA caption in Hama.\n"},
		{CSV, "\ufeff\"caption\",\"date\"\n\"A caption in Hama.\",2016\n"},
		{CSV, "\ufeffcaption\nA caption in Hama.\n"},
		{JSONL, "\ufeff{\"caption\": \"A caption in Hama.\"}\n"},
		// Saved twice by such an editor.
		{Text, "\ufeff\ufeffA caption in Hama.\n"},
		{JSONL, "\ufeff\ufeff{\"caption\": \"A caption in Hama.\"}\n"},
	} {
		recs, err := readAll(t, tt.doc, tt.format)
		if err != nil || len(recs) != 1 || recs[0].Caption != "A caption in Hama." || recs[0].Line != map[string]int{CSV: 2}[tt.format]+map[bool]int{true: 1}[tt.format != CSV] {
			t.Errorf("%s %q: %+v, %v", tt.format, tt.doc, recs, err)
		}
	}
}

// Files joined end to end keep the second one's BOM mid-file: the lines
// after it are read as any other.
func TestJoinedFiles(t *testing.T) {
	for format, doc := range map[string]string{
		JSONL: "\ufeff{\"caption\": \"One in Hama.\"}\n\ufeff{\"caption\": \"Two in Homs.\"}\n",
		Text:  "\ufeffOne in Hama.\n\n\ufeffTwo in Homs.\n",
	} {
		recs, err := readAll(t, doc, format)
		if err != nil || len(recs) != 2 || recs[1].Caption != "Two in Homs." {
			t.Errorf("%s: %+v, %v", format, recs, err)
		}
	}
}

// A CSV file cut short inside its last value is refused, not imported
// with "36." for 36.3 and "Some" for a name; a whole file ends its last
// record with a line ending, LF or CRLF, or a quoted value's newline.
func TestCSVCutShort(t *testing.T) {
	_, err := readAll(t, "caption,photographer,lat,lon\nA caption in Hama.,Some One,35.1,36.7\nAnother in Homs.,Some", CSV)
	if err == nil || !strings.HasPrefix(err.Error(), "f.csv:3: the file ends inside this record") {
		t.Errorf("cut short: %v", err)
	}
	for _, doc := range []string{
		"caption,lat,lon\nA caption in Hama.,35.1,36.7\n",
		"caption,lat,lon\r\nA caption in Hama.,35.1,36.7\r\n",
	} {
		if recs, err := readAll(t, doc, CSV); err != nil || len(recs) != 1 {
			t.Errorf("%q: %+v, %v", doc, recs, err)
		}
	}
}

func TestParseDecimalInFiles(t *testing.T) {
	recs, err := readAll(t, "caption,lat,lon\nA,-33.5,+36.25\nB,.5,1e1\n", CSV)
	if err != nil || *recs[0].Point != [2]float64{36.25, -33.5} || *recs[1].Point != [2]float64{10, 0.5} {
		t.Errorf("%+v %v", recs, err)
	}
}

// A huge CSV field is refused after about its first megabyte: reading it
// does not cost its size (a 100 MB field cost 553 MB before the bound).
func TestCSVHugeFieldIsCheap(t *testing.T) {
	huge := io.MultiReader(strings.NewReader("caption\n\""), io.LimitReader(repeatByte('x'), 100<<20), strings.NewReader("\"\n"))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var err error
	for _, e := range Read(huge, "big.csv", CSV) {
		if e != nil {
			err = e
			break
		}
	}
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "big.csv:2: a record from here on is longer than") {
		t.Errorf("a 100 MB field: %v", err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 32<<20 {
		t.Errorf("refusing a 100 MB field allocated %d MB", n>>20)
	}
}

// repeatByte reads as the byte b repeated for ever.
type repeatByte byte

func (r repeatByte) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}

// TestTextWarnsOfJoinedCaptions (issue 68, 6): a text file's captions
// are separated by blank lines; two on consecutive lines (the first
// ending a sentence, the next starting one) become one photo, and the
// record says so, naming the line to separate. A caption wrapped inside
// a sentence, or split at a credit, warns of nothing.
func TestTextWarnsOfJoinedCaptions(t *testing.T) {
	for _, c := range []struct {
		name, doc string
		want      []string // each record's warnings
	}{
		{"two captions on consecutive lines",
			"A man walks past a damaged building in Saraqeb, Syria January 15, 2018.\nA boy carries bread in Douma, Syria January 16, 2018.\n",
			[]string{"f.txt:2: two captions may be joined into one photo: separate captions by a blank line"}},
		{"in Arabic", "رجل يمشي قرب مبنى مدمّر في سراقب.\nطفل يحمل الخبز في دوما.\n",
			[]string{"f.txt:2: two captions may be joined into one photo: separate captions by a blank line"}},
		{"a caption wrapped in a sentence", "A man walks past a damaged building\nin Saraqeb, Syria January 15, 2018.\n", []string{""}},
		{"separated by a blank line", "A man in Saraqeb, 2018.\n\nA boy in Douma, 2018.\n", []string{"", ""}},
		{"split at a credit", "Smoke over Idlib. (Photo by A B/Reuters)\nA boy in Douma. (Photo by C D/AFP)\n", []string{"", ""}},
	} {
		t.Run(c.name, func(t *testing.T) {
			recs, err := readAll(t, c.doc, Text)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range recs {
				got = append(got, strings.Join(r.Warnings, "; "))
			}
			if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", c.want) {
				t.Errorf("warnings %q, want %q", got, c.want)
			}
		})
	}
}

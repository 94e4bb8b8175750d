package conflict

import (
	"os"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/photo"
)

func readFile(t *testing.T, name string) []Event {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	evs, err := Read(f, name, "v1")
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// TestReadGED reads real GED rows of every where_prec and date_prec code
// by the header's names: ids, points, windows, kinds, deaths.
func TestReadGED(t *testing.T) {
	evs := readFile(t, "ged-syria-sample.csv")
	if len(evs) != 11 {
		t.Fatalf("%d events, want 11", len(evs))
	}
	e := evs[0] // the first row of the Syria file
	if e.Dataset != GED || e.Version != "v1" || e.ID != "214797" || e.DateStart != 20160101 || e.DateEnd != 20160101 || e.DatePrec != 1 ||
		e.WherePrec != 1 || e.Lon != 36.707602 || e.Lat != 34.802462 || e.Kind != "state-based" || e.Deaths != 4 || e.Where != "Teir Maaleh village" ||
		e.Adm1 != "Homs Governorate" || !strings.Contains(e.Headline, "Dahya al-Assad") || e.SideA != "Government of Syria" {
		t.Errorf("the first event: %+v", e)
	}
	wheres, dates := map[int]bool{}, map[int]bool{}
	for _, e := range evs {
		wheres[e.WherePrec], dates[e.DatePrec] = true, true
		if e.DateEnd < e.DateStart || e.DateStart < 20160101 {
			t.Errorf("event %s: window %d–%d", e.ID, e.DateStart, e.DateEnd)
		}
		if e.DatePrec == 1 && e.DateStart != e.DateEnd {
			t.Errorf("event %s known to the day spans %d–%d", e.ID, e.DateStart, e.DateEnd)
		}
	}
	if len(wheres) != 6 || len(dates) != 5 {
		t.Errorf("where_prec codes %v, date_prec codes %v: the sample holds each", wheres, dates)
	}
}

// TestReadACLED: an export is told by its header; a month-precise event
// is its whole month, never the middle day the export writes.
func TestReadACLED(t *testing.T) {
	evs := readFile(t, "acled-synthetic.csv")
	if len(evs) != 2 {
		t.Fatalf("%d events", len(evs))
	}
	if e := evs[0]; e.Dataset != ACLED || e.ID != "SYR900001" || e.DateStart != 20180115 || e.DateEnd != 20180115 || e.WherePrec != 1 || e.Deaths != 4 || e.Kind != "Explosions/Remote violence" {
		t.Errorf("a day's event: %+v", e)
	}
	if e := evs[1]; e.DatePrec != 3 || e.DateStart != 20180201 || e.DateEnd != 20180228 {
		t.Errorf("a month's event: %d–%d (precision %d), want all of February 2018", e.DateStart, e.DateEnd, e.DatePrec)
	}
}

// TestReadRefuses: a bad row or header is refused with the file and
// line, and no events.
func TestReadRefuses(t *testing.T) {
	head := "id,type_of_violence,side_a,side_b,where_prec,where_coordinates,adm_1,adm_2,latitude,longitude,date_prec,date_start,date_end,deaths_civilians,best,source_headline,source_office\n"
	good := "1,1,A,B,1,X,Y,Z,35.1,36.2,1,2016-01-02,2016-01-02,0,3,h,o\n"
	for _, c := range []struct{ name, file, want string }{
		{"no header", "", "e.csv:1:"},
		{"another file", "caption,date\nx,y\n", "e.csv:1: the header is neither"},
		{"a column missing", strings.Replace(head, "best,", "", 1) + good, "e.csv:1: the header lacks best"},
		{"a bad where_prec", head + good + strings.Replace(good, "1,1,A,B,1,", "2,1,A,B,9,", 1), `e.csv:3: event 2: where_prec "9": want 1 to 7`},
		{"a bad date", head + strings.Replace(good, "2016-01-02,2016-01-02", "2016-02-30,2016-02-30", 1), "e.csv:2: event 1: date_start"},
		{"no point", head + strings.Replace(good, "35.1,36.2", ",", 1), "e.csv:2: event 1: longitude"},
		{"an id twice", head + good + good, "e.csv:3: event 1 again (first on line 2)"},
		{"ends before it starts", head + strings.Replace(good, "2016-01-02,2016-01-02", "2016-01-05,2016-01-02", 1), "is before date_start"},
	} {
		evs, err := Read(strings.NewReader(c.file), "e.csv", "v")
		if err == nil || evs != nil || photo.ErrorCode(err) != photo.EInvalid || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %d events, %v; want an error with %q", c.name, len(evs), err, c.want)
		}
	}
}

// TestReadTheWholeSyriaFile reads the 16,566 events of ../shared/events.
func TestReadTheWholeSyriaFile(t *testing.T) {
	f, err := os.Open("../../../shared/events/ucdp-ged-syria-19.1.csv")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI runs with ../shared beside the repo, but: %v", err)
		}
		t.Skip(err)
	}
	defer f.Close()
	evs, err := Read(f, "ucdp-ged-syria-19.1.csv", "19.1")
	if err != nil || len(evs) != 16566 {
		t.Fatalf("%d events, %v; want 16,566", len(evs), err)
	}
}

// TestReadRefusesControls (issue 65, 10): a control character or a
// bidirectional override in an event's words (NUL, ESC, U+202E in a
// headline or a side), which the event pages would print raw, is refused
// with the file, line and field, as in a place's name
// (photo.CheckName); the line breaks and tabs the real exports hold in
// their headlines are read as spaces.
func TestReadRefusesControls(t *testing.T) {
	head := "id,type_of_violence,side_a,side_b,where_prec,where_coordinates,adm_1,adm_2,latitude,longitude,date_prec,date_start,date_end,deaths_civilians,best,source_headline,source_office\n"
	row := func(sideA, headline string) string {
		return `1,1,"` + sideA + `",B,1,X,Y,Z,35.1,36.2,1,2016-01-02,2016-01-02,0,3,"` + headline + `",o` + "\n"
	}
	for _, c := range []struct{ name, file, want string }{
		{"NUL in a headline", head + row("A", "Shelling\x00 in Homs"), "e.csv:2: event 1: headline: the headline holds a control character (U+0000"},
		{"ESC in a headline", head + row("A", "\x1b[31mred"), "e.csv:2: event 1: headline: the headline holds a control character (U+001B"},
		{"an override in a side", head + row("Rebels \u202eslebeR", "h"), "e.csv:2: event 1: side_a: the side_a holds a bidirectional override (U+202E"},
		{"ESC in a side", head + row("\x1b]0;x\x07", "h"), "e.csv:2: event 1: side_a: the side_a holds a control character"},
	} {
		evs, err := Read(strings.NewReader(c.file), "e.csv", "v")
		if err == nil || evs != nil || photo.ErrorCode(err) != photo.EInvalid || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %d events, %v; want an error with %q", c.name, len(evs), err, c.want)
		}
	}
	evs, err := Read(strings.NewReader(head+row("A", "Two lines\r\nand\ta tab")), "e.csv", "v")
	if err != nil || len(evs) != 1 || evs[0].Headline != "Two lines and a tab" {
		t.Fatalf("a headline over two lines: %+v, %v; want it read as one line", evs, err)
	}
}

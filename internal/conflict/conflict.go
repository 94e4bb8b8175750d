// Package conflict reads the datasets of conflict events a photo may
// document: UCDP's Georeferenced Event Dataset (GED, the global file or
// a country's, 41 or 49 columns) and an ACLED export, told apart by their
// headers and read by the columns' names, never their positions.
//
// An event keeps what its dataset says of how well its place and day are
// known (GED's where_prec 1–7 and date_prec 1–5, ACLED's geo_precision
// and time_precision 1–3): the linker reads them as areas and windows.
package conflict

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/syriamap/syriamap/internal/photo"
)

// The datasets.
const (
	GED   = "ucdp-ged"
	ACLED = "acled"
)

// Event is one event of a dataset, as read.
type Event struct {
	Dataset string `json:"dataset"` // GED or ACLED
	Version string `json:"version"`
	ID      string `json:"id"`
	// DateStart and DateEnd are the first and last day the dataset
	// gives (YYYYMMDD); for an ACLED event known to the month only, its
	// whole month (never its middle day, which the export writes).
	DateStart int `json:"date_start"`
	DateEnd   int `json:"date_end"`
	// DatePrec is GED's date_prec (1 the day … 5 the year) or ACLED's
	// time_precision (1 the day, 2 the week, 3 the month).
	DatePrec int `json:"date_prec"`
	// Lon and Lat are the event's point; WherePrec GED's where_prec (1
	// the exact place … 6 the country, 7 water or airspace) or ACLED's
	// geo_precision (1 the place, 2 near it, 3 the district).
	Lon       float64 `json:"lon"`
	Lat       float64 `json:"lat"`
	WherePrec int     `json:"where_prec"`
	Where     string  `json:"where"` // the place as the dataset names it
	Adm1      string  `json:"adm_1"`
	Adm2      string  `json:"adm_2"`
	// Kind is GED's type_of_violence (1 state-based, 2 non-state, 3
	// one-sided) as "state-based", "non-state", "one-sided", or ACLED's
	// event_type.
	Kind  string `json:"kind"`
	SideA string `json:"side_a"`
	SideB string `json:"side_b"`
	// Deaths is GED's best estimate or ACLED's fatalities; Civilians
	// GED's deaths_civilians (0 for ACLED).
	Deaths    int `json:"deaths"`
	Civilians int `json:"civilians"`
	// Headline is GED's source_headline or ACLED's notes; Source the
	// offices or sources that reported it.
	Headline string `json:"headline"`
	Source   string `json:"source"`
}

// gedKinds are GED's type_of_violence codes in words.
var gedKinds = map[string]string{"1": "state-based", "2": "non-state", "3": "one-sided"}

// Read reads the events of one CSV file, named name in errors, of the
// dataset its header says. Every error names the file and line; a file
// with one bad row gives no events.
func Read(r io.Reader, name, version string) ([]Event, error) {
	cr := csv.NewReader(r)
	header, err := cr.Read()
	if err != nil {
		return nil, photo.Errorf(photo.EInvalid, "%s:1: no header of a GED or ACLED export: %v", name, err)
	}
	col := map[string]int{}
	for i, h := range header {
		col[strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))] = i
	}
	var read func(get func(string) string) (Event, error)
	var need []string
	switch {
	case has(col, "event_id_cnty"):
		read, need = readACLED, acledColumns
	case has(col, "where_prec") && has(col, "date_prec"):
		read, need = readGED, gedColumns
	default:
		return nil, photo.Errorf(photo.EInvalid, "%s:1: the header is neither UCDP GED's (id, where_prec, date_prec …) nor ACLED's (event_id_cnty …)", name)
	}
	var missing []string
	for _, c := range need {
		if !has(col, c) {
			missing = append(missing, c)
		}
	}
	if len(missing) > 0 {
		return nil, photo.Errorf(photo.EInvalid, "%s:1: the header lacks %s", name, strings.Join(missing, ", "))
	}
	var out []Event
	seen := map[string]int{}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		line, _ := cr.FieldPos(0)
		if err != nil {
			return nil, photo.Errorf(photo.EInvalid, "%s:%d: %v", name, line, err)
		}
		get := func(c string) string { return strings.TrimSpace(rec[col[c]]) }
		e, err := read(get)
		if err == nil {
			err = checkWords(&e)
		}
		if err != nil {
			return nil, photo.Errorf(photo.EInvalid, "%s:%d: %v", name, line, err)
		}
		if first, ok := seen[e.ID]; ok {
			return nil, photo.Errorf(photo.EInvalid, "%s:%d: event %s again (first on line %d)", name, line, e.ID, first)
		}
		seen[e.ID] = line
		e.Version = version
		out = append(out, e)
	}
	return out, nil
}

// lineBreaks are the runs of line breaks and tabs in an event's free
// text.
var lineBreaks = regexp.MustCompile(`[\t\n\v\f\r]+`)

// checkWords refuses an event whose words hold a control character or a
// bidirectional override, which its pages would print raw (a NUL, an ANSI
// escape, U+202E that makes a side read backwards), by the one rule of a
// name (photo.CheckName). The line breaks and tabs of its headline and
// sources, which real exports hold (16 headlines of GED 19.1's Syria),
// are read as a space first.
func checkWords(e *Event) error {
	e.Headline = lineBreaks.ReplaceAllString(e.Headline, " ")
	e.Source = lineBreaks.ReplaceAllString(e.Source, " ")
	for _, w := range []struct{ field, s string }{{"id", e.ID}, {"kind", e.Kind}, {"side_a", e.SideA}, {"side_b", e.SideB},
		{"place", e.Where}, {"adm_1", e.Adm1}, {"adm_2", e.Adm2}, {"headline", e.Headline}, {"source", e.Source}} {
		if err := photo.CheckName(w.field, w.s); err != nil {
			return fmt.Errorf("event %s: %w", e.ID, err)
		}
	}
	return nil
}

func has(col map[string]int, c string) bool { _, ok := col[c]; return ok }

var gedColumns = []string{"id", "type_of_violence", "side_a", "side_b", "where_prec", "where_coordinates", "adm_1", "adm_2",
	"latitude", "longitude", "date_prec", "date_start", "date_end", "deaths_civilians", "best", "source_headline", "source_office"}

func readGED(get func(string) string) (Event, error) {
	e := Event{Dataset: GED, ID: get("id"), Kind: gedKinds[get("type_of_violence")], SideA: get("side_a"), SideB: get("side_b"),
		Where: get("where_coordinates"), Adm1: get("adm_1"), Adm2: get("adm_2"), Headline: get("source_headline"), Source: get("source_office")}
	if e.ID == "" {
		return e, errors.New("the event has no id")
	}
	if e.Kind == "" {
		return e, fmt.Errorf("event %s: type_of_violence %q: want 1, 2 or 3", e.ID, get("type_of_violence"))
	}
	var err error
	if e.WherePrec, err = code(get("where_prec"), 1, 7); err != nil {
		return e, fmt.Errorf("event %s: where_prec %v", e.ID, err)
	}
	if e.DatePrec, err = code(get("date_prec"), 1, 5); err != nil {
		return e, fmt.Errorf("event %s: date_prec %v", e.ID, err)
	}
	if e.Lon, e.Lat, err = point(get("longitude"), get("latitude")); err != nil {
		return e, fmt.Errorf("event %s: %v", e.ID, err)
	}
	if e.DateStart, err = day(get("date_start")); err != nil {
		return e, fmt.Errorf("event %s: date_start %v", e.ID, err)
	}
	if e.DateEnd, err = day(get("date_end")); err != nil {
		return e, fmt.Errorf("event %s: date_end %v", e.ID, err)
	}
	if e.DateEnd < e.DateStart {
		return e, fmt.Errorf("event %s: date_end %s is before date_start %s", e.ID, get("date_end"), get("date_start"))
	}
	if e.Deaths, err = count(get("best")); err != nil {
		return e, fmt.Errorf("event %s: best %v", e.ID, err)
	}
	if e.Civilians, err = count(get("deaths_civilians")); err != nil {
		return e, fmt.Errorf("event %s: deaths_civilians %v", e.ID, err)
	}
	return e, nil
}

var acledColumns = []string{"event_id_cnty", "event_date", "time_precision", "event_type", "actor1", "actor2", "admin1", "admin2",
	"location", "latitude", "longitude", "geo_precision", "source", "notes", "fatalities"}

func readACLED(get func(string) string) (Event, error) {
	e := Event{Dataset: ACLED, ID: get("event_id_cnty"), Kind: get("event_type"), SideA: get("actor1"), SideB: get("actor2"),
		Where: get("location"), Adm1: get("admin1"), Adm2: get("admin2"), Headline: get("notes"), Source: get("source")}
	if e.ID == "" {
		return e, errors.New("the event has no event_id_cnty")
	}
	var err error
	if e.WherePrec, err = code(get("geo_precision"), 1, 3); err != nil {
		return e, fmt.Errorf("event %s: geo_precision %v", e.ID, err)
	}
	if e.DatePrec, err = code(get("time_precision"), 1, 3); err != nil {
		return e, fmt.Errorf("event %s: time_precision %v", e.ID, err)
	}
	if e.Lon, e.Lat, err = point(get("longitude"), get("latitude")); err != nil {
		return e, fmt.Errorf("event %s: %v", e.ID, err)
	}
	d, err := acledDay(get("event_date"))
	if err != nil {
		return e, fmt.Errorf("event %s: event_date %v", e.ID, err)
	}
	e.DateStart, e.DateEnd = d, d
	if e.DatePrec == 3 {
		// Known to the month: the export writes its middle day, but the
		// event may be on any day of it.
		t := time.Date(d/10000, time.Month(d/100%100), 1, 0, 0, 0, 0, time.UTC)
		e.DateStart, e.DateEnd = yyyymmdd(t), yyyymmdd(t.AddDate(0, 1, -1))
	}
	if e.Deaths, err = count(get("fatalities")); err != nil {
		return e, fmt.Errorf("event %s: fatalities %v", e.ID, err)
	}
	return e, nil
}

func code(v string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%q: want %d to %d", v, lo, hi)
	}
	return n, nil
}

func count(v string) (int, error) {
	if v == "" || v == "NA" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%q is not a count", v)
	}
	return n, nil
}

func point(lon, lat string) (float64, float64, error) {
	x, err1 := strconv.ParseFloat(lon, 64)
	y, err2 := strconv.ParseFloat(lat, 64)
	if err1 != nil || err2 != nil || math.IsNaN(x) || math.IsNaN(y) || x < -180 || x > 180 || y < -90 || y > 90 {
		return 0, 0, fmt.Errorf("longitude %q, latitude %q: not a point", lon, lat)
	}
	return x, y, nil
}

// day reads GED's YYYY-MM-DD (an R export may add a time).
func day(v string) (int, error) {
	v, _, _ = strings.Cut(v, " ")
	t, err := time.Parse("2006-01-02", v)
	if err != nil {
		return 0, fmt.Errorf("%q is not YYYY-MM-DD", v)
	}
	return yyyymmdd(t), nil
}

// acledDay reads ACLED's event_date: "15 January 2018" in its exports,
// YYYY-MM-DD in its API's.
func acledDay(v string) (int, error) {
	for _, layout := range []string{"2 January 2006", "02 January 2006", "2006-01-02"} {
		if t, err := time.Parse(layout, v); err == nil {
			return yyyymmdd(t), nil
		}
	}
	return 0, fmt.Errorf("%q is not a date (15 January 2018, or 2018-01-15)", v)
}

func yyyymmdd(t time.Time) int { return t.Year()*10000 + int(t.Month())*100 + t.Day() }

package photo

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Date is a calendar date known to day, month or year precision. The zero
// Date is no date.
type Date struct {
	Year, Month, Day int
	// Precision is "day", "month", "year", or "" for no date.
	Precision string
}

// Where a photo's date came from (Photo.DateSource), in the order the
// archive takes them: the caption's own words first (a relative date
// read against the import's or the file's date is still the caption's);
// then the date an import gives (its date column or field, else the day
// its page was published: a page's date may be a day or two after the
// photo's); then the image file's (IPTC DateCreated, else EXIF
// DateTimeOriginal); an editor's fix always wins.
const (
	DateCaption = "caption"
	DateImport  = "import"
	DateFile    = "file"
	DateEditor  = "editor"
)

// DateLagDays is how many days a date of source may be after the day
// the photo was taken: an import's date is often its page's, published a
// day or two later; the caption's, a file's and an editor's are the
// photo's own.
func DateLagDays(source string) int {
	if source == DateImport {
		return 2
	}
	return 0
}

// Within reports whether d is at least as fine as c and inside it: a
// day of c's month, a month of its year (c itself too).
func (d Date) Within(c Date) bool {
	df, dl := d.Span()
	cf, cl := c.Span()
	return !d.IsZero() && !c.IsZero() && df >= cf && dl <= cl
}

// Parts are the date's year, month and day as far as its precision
// goes: month and day 0 beyond it (a month-precise date has day 0; an
// undated one is all 0), as i18n's Locale.Date takes them.
func (d Date) Parts() (year int, month time.Month, day int) {
	switch d.Precision {
	case "day":
		return d.Year, time.Month(d.Month), d.Day
	case "month":
		return d.Year, time.Month(d.Month), 0
	case "year":
		return d.Year, 0, 0
	}
	return 0, 0, 0
}

// IsZero reports whether d is no date.
func (d Date) IsZero() bool { return d.Precision == "" }

// String formats d as YYYY-MM-DD, YYYY-MM or YYYY by its precision.
func (d Date) String() string {
	switch d.Precision {
	case "day":
		return fmt.Sprintf("%04d-%02d-%02d", d.Year, d.Month, d.Day)
	case "month":
		return fmt.Sprintf("%04d-%02d", d.Year, d.Month)
	case "year":
		return fmt.Sprintf("%04d", d.Year)
	}
	return ""
}

// ParseDate reads YYYY, YYYY-MM or YYYY-MM-DD. It returns an error naming
// what is wrong for anything else, including impossible days.
func ParseDate(s string) (Date, error) {
	parts := strings.Split(strings.TrimSpace(s), "-")
	if len(parts) > 3 || len(parts[0]) != 4 {
		return Date{}, fmt.Errorf("date %q is not YYYY, YYYY-MM or YYYY-MM-DD", s)
	}
	var n [3]int
	for i, p := range parts {
		v, err := strconv.Atoi(p)
		if err != nil || i > 0 && len(p) != 2 {
			return Date{}, fmt.Errorf("date %q is not YYYY, YYYY-MM or YYYY-MM-DD", s)
		}
		n[i] = v
	}
	d := Date{Year: n[0], Month: n[1], Day: n[2], Precision: [...]string{"year", "month", "day"}[len(parts)-1]}
	if d.Year < 1900 || d.Year > 2100 {
		return Date{}, fmt.Errorf("date %q: year out of range", s)
	}
	if len(parts) >= 2 && (d.Month < 1 || d.Month > 12) {
		return Date{}, fmt.Errorf("date %q: no month %d", s, d.Month)
	}
	if len(parts) == 3 {
		t := time.Date(d.Year, time.Month(d.Month), d.Day, 0, 0, 0, 0, time.UTC)
		if t.Day() != d.Day || d.Day < 1 {
			return Date{}, fmt.Errorf("date %q: no such day", s)
		}
	}
	return d, nil
}

// Span returns the first and last day d covers, as YYYYMMDD integers: a
// month covers all its days, a year all its months. The zero Date gives
// 0, 0.
func (d Date) Span() (first, last int) {
	switch d.Precision {
	case "day":
		v := d.Year*10000 + d.Month*100 + d.Day
		return v, v
	case "month":
		days := time.Date(d.Year, time.Month(d.Month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
		return d.Year*10000 + d.Month*100 + 1, d.Year*10000 + d.Month*100 + days
	case "year":
		return d.Year*10000 + 101, d.Year*10000 + 1231
	}
	return 0, 0
}

// DateFromSpan is the inverse of Span for the spans Span makes.
func DateFromSpan(first, last int, precision string) Date {
	if first == 0 {
		return Date{}
	}
	return Date{Year: first / 10000, Month: first / 100 % 100, Day: first % 100, Precision: precision}.trim()
}

func (d Date) trim() Date {
	switch d.Precision {
	case "month":
		d.Day = 0
	case "year":
		d.Month, d.Day = 0, 0
	}
	return d
}

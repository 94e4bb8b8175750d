package ogcapi

import (
	"net/url"
	"testing"

	"github.com/syriamap/syriamap/internal/photo"
)

// TestParseDatetime: instants and intervals, open at either end (never
// closed at today), and the mistakes named.
func TestParseDatetime(t *testing.T) {
	day := func(y, m, d int) photo.Date { return photo.Date{Year: y, Month: m, Day: d, Precision: "day"} }
	for _, tt := range []struct {
		in       string
		from, to photo.Date
		bad      bool
	}{
		{in: "2016-09-19", from: day(2016, 9, 19), to: day(2016, 9, 19)},
		{in: "2016-01-01/2016-12-31", from: day(2016, 1, 1), to: day(2016, 12, 31)},
		{in: "2016-01-01/..", from: day(2016, 1, 1)},
		{in: "2016-01-01/", from: day(2016, 1, 1)},
		{in: "../2014-12-31", to: day(2014, 12, 31)},
		{in: "../.."},
		{in: "2016-12-31/2016-01-01", bad: true},
		{in: "yesterday", bad: true},
		{in: "2016-01-01/soon", bad: true},
	} {
		from, to, err := parseDatetime(tt.in)
		if (err != nil) != tt.bad || !tt.bad && (from != tt.from || to != tt.to) {
			t.Errorf("%s: %v–%v, %v", tt.in, from, to, err)
		}
	}
}

func TestPagingAndChecks(t *testing.T) {
	q := func(s string) url.Values { v, _ := url.ParseQuery(s); return v }
	if l, o, err := paging(q("")); l != DefaultLimit || o != 0 || err != nil {
		t.Errorf("defaults: %d, %d, %v", l, o, err)
	}
	for _, bad := range []string{"limit=0", "limit=10001", "offset=-1", "limit=2&limit=3"} {
		if _, _, err := paging(q(bad)); err == nil {
			t.Errorf("%s taken", bad)
		}
	}
	if err := checkCRS(q("crs=EPSG:3857")); err == nil {
		t.Error("a CRS other than CRS84 taken")
	}
	if err := checkParams(q("limit=1&colour=red"), []string{"limit"}); err == nil {
		t.Error("an unknown parameter taken")
	}
	if hits, err := resultHits(q("resultType=hits")); !hits || err != nil {
		t.Errorf("resultType=hits: %v, %v", hits, err)
	}
}

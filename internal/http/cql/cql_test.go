package cql

import (
	"reflect"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/photo"
)

var props = map[string]Type{"agency": String, "place_id": String, "confidence": Number, "date": Date}

func cond(p, op string, v any) photo.Cond { return photo.Cond{Property: p, Op: op, Value: v} }

func day(y, m, d int) photo.Date { return photo.Date{Year: y, Month: m, Day: d, Precision: "day"} }

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []photo.Cond
	}{
		{"agency = 'AFP'", []photo.Cond{cond("agency", "=", "AFP")}},
		{`"agency"<>'Reuters'`, []photo.Cond{cond("agency", "<>", "Reuters")}},
		{"agency = 'Women''s Voice'", []photo.Cond{cond("agency", "=", "Women's Voice")}},
		{"confidence > 0.5 and confidence<=1", []photo.Cond{cond("confidence", ">", 0.5), cond("confidence", "<=", 1.0)}},
		{"confidence >= -1e-3", []photo.Cond{cond("confidence", ">=", -0.001)}},
		{"date >= DATE('2016-01-01') AND date < date('2017-01-01')",
			[]photo.Cond{cond("date", ">=", day(2016, 1, 1)), cond("date", "<", day(2017, 1, 1))}},
		{"date = TIMESTAMP('2016-03-05T10:00:00Z')", []photo.Cond{cond("date", "=", day(2016, 3, 5))}},
		{"date BETWEEN DATE('2016-01-01') AND DATE('2016-12-31') AND agency = 'AFP'",
			[]photo.Cond{cond("date", ">=", day(2016, 1, 1)), cond("date", "<=", day(2016, 12, 31)), cond("agency", "=", "AFP")}},
		{"(agency = 'AFP' AND (place_id = 'gn:1'))", []photo.Cond{cond("agency", "=", "AFP"), cond("place_id", "=", "gn:1")}},
		{"T_INTERSECTS(date, INTERVAL('2016-01-01', '..'))", []photo.Cond{cond("date", ">=", day(2016, 1, 1))}},
		{"T_DURING(date, INTERVAL('2016-01-01','2016-06-30'))",
			[]photo.Cond{cond("date", ">=", day(2016, 1, 1)), cond("date", "<=", day(2016, 6, 30))}},
	} {
		got, err := Parse(c.in, props)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.in, err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("Parse(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}

// TestParseRefuses checks that what the reader cannot answer is an error
// naming the filter parameter and saying why, never a looser filter.
func TestParseRefuses(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "empty"},
		{"agency = 'AFP' OR agency = 'AP'", "OR is not supported"},
		{"(agency = 'AFP' OR agency = 'AP')", "OR is not supported"},
		{"NOT agency = 'AFP'", "NOT is not supported"},
		{"agency LIKE 'A%'", "LIKE is not supported"},
		{"agency IN ('AFP')", "IN is not supported"},
		{"caption = 'x'", `"caption" at 0 is not a queryable property`},
		{"agency = 3", "expected a 'quoted string'"},
		{"confidence > 'high'", "expected a number"},
		{"date > DATE('yesterday')", "not a date"},
		{"agency = 'AFP", "no closing quote"},
		{"'AFP' = agency", "write the property first"},
		{"agency = 'AFP' agency", "unexpected"},
		{"agency ~ 'AFP'", "unexpected"},
		{strings.Repeat("(", 40) + "agency = 'AFP'" + strings.Repeat(")", 40), "nested"},
		{"date BETWEEN DATE('2016-01-01') OR DATE('2017-01-01')", "expected AND"},
	} {
		_, err := Parse(c.in, props)
		if err == nil {
			t.Errorf("Parse(%q) succeeded", c.in)
			continue
		}
		if photo.ErrorCode(err) != photo.EInvalid || !strings.HasPrefix(err.Error(), "filter: ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q) = %v, want an invalid filter saying %q", c.in, err, c.want)
		}
	}
}

func TestParseInstant(t *testing.T) {
	for in, want := range map[string]photo.Date{
		"2016-03-05": day(2016, 3, 5), "2016-03-05T": day(2016, 3, 5), "2016-03-05T23:59:59Z": day(2016, 3, 5),
		"2016-03": {Year: 2016, Month: 3, Precision: "month"}, "2016": {Year: 2016, Precision: "year"},
	} {
		if got, err := ParseInstant(in); err != nil || got != want {
			t.Errorf("ParseInstant(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "..", "March 2016", "2016-13-01", "T10:00"} {
		if _, err := ParseInstant(in); err == nil {
			t.Errorf("ParseInstant(%q) succeeded", in)
		}
	}
}

// FuzzParse requires any text to be parsed or refused as a bad filter,
// never a panic, and every condition to name a queryable property with a
// value of its type.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"agency = 'AFP'", "date BETWEEN DATE('2016-01-01') AND DATE('2016-12-31')",
		"T_INTERSECTS(date, INTERVAL('..','2016-01-01'))", "(confidence>0.5 AND place_id<>'x')", "'a'''", `"agency"=''`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		conds, err := Parse(s, props)
		if err != nil {
			if photo.ErrorCode(err) != photo.EInvalid {
				t.Fatalf("Parse(%q): %v is not a bad-parameter error", s, err)
			}
			return
		}
		for _, c := range conds {
			typ, ok := props[c.Property]
			if !ok {
				t.Fatalf("Parse(%q): %q is not queryable", s, c.Property)
			}
			switch c.Value.(type) {
			case string:
				ok = typ == String
			case float64:
				ok = typ == Number
			case photo.Date:
				ok = typ == Date
			default:
				ok = false
			}
			if !ok {
				t.Fatalf("Parse(%q): %v has a value of the wrong type", s, c)
			}
		}
	})
}

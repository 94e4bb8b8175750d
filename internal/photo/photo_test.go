package photo

import (
	"errors"
	"fmt"
	"testing"
)

func TestParseDateAndSpan(t *testing.T) {
	tests := []struct {
		in          string
		first, last int
	}{
		{"2016-09-19", 20160919, 20160919},
		{"2016-02", 20160201, 20160229},
		{"2015-02", 20150201, 20150228},
		{"2016", 20160101, 20161231},
	}
	for _, tt := range tests {
		d, err := ParseDate(tt.in)
		if err != nil {
			t.Fatalf("ParseDate(%q): %v", tt.in, err)
		}
		if d.String() != tt.in {
			t.Errorf("ParseDate(%q).String() = %q", tt.in, d)
		}
		first, last := d.Span()
		if first != tt.first || last != tt.last {
			t.Errorf("%s spans %d…%d, want %d…%d", tt.in, first, last, tt.first, tt.last)
		}
		if back := DateFromSpan(first, last, d.Precision); back != d {
			t.Errorf("DateFromSpan(%d) = %+v, want %+v", first, back, d)
		}
	}
	for _, bad := range []string{"", "16", "2016-13", "2016-02-30", "2016-2-3", "2016/02/03", "abcd", "2016-00", "1800"} {
		if _, err := ParseDate(bad); err == nil {
			t.Errorf("ParseDate(%q) accepted", bad)
		}
	}
	if a, b := (Date{}).Span(); a != 0 || b != 0 || !(Date{}).IsZero() {
		t.Error("the zero Date spans something")
	}
}

func TestID(t *testing.T) {
	a := ID("A boy in  Aleppo.\n")
	if a != ID("a boy in aleppo.") || len(a) != 16 {
		t.Errorf("ID ignores case and spacing: %s vs %s", a, ID("a boy in aleppo."))
	}
	if a == ID("A boy in Homs.") {
		t.Error("two captions share an id")
	}
}

func TestErrors(t *testing.T) {
	err := fmt.Errorf("wrapped: %w", Errorf(EInvalid, "bad %s", "thing"))
	if ErrorCode(err) != EInvalid || ErrorMessage(err) != "bad thing" {
		t.Errorf("code %q message %q", ErrorCode(err), ErrorMessage(err))
	}
	if ErrorCode(errors.New("disk on fire")) != EInternal || ErrorMessage(errors.New("disk on fire")) != "internal error" {
		t.Error("an internal error leaks its text")
	}
	if ErrorCode(nil) != "" {
		t.Error("nil has a code")
	}
}

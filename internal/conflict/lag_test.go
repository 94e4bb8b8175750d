package conflict

import (
	"strings"
	"testing"
)

// TestWindowFitsTheDateSource: a photo dated by its import (a page's
// date, often a day or two after the photo's) looks back two days more
// than one dated by its caption or its file, and scores an event of
// those days nearly as one of its own day; a date that is the photo's
// own does not (issue 69, item 1).
func TestWindowFitsTheDateSource(t *testing.T) {
	e := byID(t)["214797"] // Teir Maaleh village, 1 January 2016
	for _, c := range []struct {
		name     string
		photoDay int
		lag      int
		match    bool
		min, max float64
		whyHas   string
	}{
		{"the caption's date, the same day", 20160101, 0, true, 0.9, 1, "same day"},
		{"the caption's date, two days after", 20160103, 0, true, 0.5, 0.75, "2 days before the photo"},
		{"the caption's date, three days after", 20160104, 0, false, 0, 0, ""},
		{"a page's date, the same day", 20160101, 2, true, 0.9, 1, "same day"},
		{"a page's date, the next day", 20160102, 2, true, 0.85, 1, "the day before the import's date"},
		{"a page's date, two days after", 20160103, 2, true, 0.8, 0.95, "2 days before the import's date"},
		{"a page's date, four days after", 20160105, 2, true, 0.5, 0.75, "4 days before the import's date"},
		{"a page's date, five days after", 20160106, 2, false, 0, 0, ""},
	} {
		s := sight(e, 0, "village", "Homs", c.photoDay, c.photoDay, "Smoke over Teir Maaleh village after shelling")
		s.Lag = c.lag
		got, ok := Match(s, e)
		from, to := Window(s)
		if in := e.DateStart >= from && e.DateStart <= to; in != c.match {
			t.Errorf("%s: window %d–%d holds the event %v, want %v", c.name, from, to, in, c.match)
		}
		if ok != c.match {
			t.Errorf("%s: matched %v, want %v (%+v)", c.name, ok, c.match, got)
			continue
		}
		if ok && (got.Score < c.min || got.Score > c.max || !strings.Contains(got.Why, c.whyHas)) {
			t.Errorf("%s: score %.2f (want %.2f–%.2f), why %q (want %q)", c.name, got.Score, c.min, c.max, got.Why, c.whyHas)
		}
	}
	// The index answers what Rank does over the longer window.
	s := sight(e, 0, "village", "Homs", 20160104, 20160104, "Smoke over Teir Maaleh village after shelling")
	s.Lag = 2
	if got := NewIndex([]Event{e}).Candidates(s); len(got) != 1 {
		t.Errorf("the index gives %d candidates for a page's date three days after the event, want 1", len(got))
	}
}

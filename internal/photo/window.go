package photo

import "math"

// Window is a filter's time window as day numbers (YYYYMMDD), with the
// rule of which photos it admits. It is the one statement of that rule:
// the archive's SQL (store) and the memory index both take their numbers
// from it.
//
// A photo is in the window when the period its date covers overlaps it.
// Only a month- or year-dated photo can start before the window and still
// overlap it, and it then starts on the 1st of the window's first month
// or on the 1st of January of its first year: so the photos to look at
// start in the window or on one of those two days, short ranges of an
// index ordered by first day.
type Window struct {
	// From and To say whether the window has a start and an end.
	From, To bool
	// First and Last are its first and last days (0 and MaxInt32 when
	// open).
	First, Last int
	// Month and Year are the two days before First on which an
	// overlapping photo may start: the 1st of First's month and the 1st
	// of January of its year.
	Month, Year int
}

// WindowOf returns the time window of f.
func WindowOf(f Filter) Window {
	w := Window{From: !f.From.IsZero(), To: !f.To.IsZero(), Last: math.MaxInt32}
	if w.From {
		w.First, _ = f.From.Span()
		w.Month, w.Year = w.First/100*100+1, w.First/10000*10000+101
	}
	if w.To {
		_, w.Last = f.To.Span()
	}
	return w
}

// Admits reports whether a photo whose date covers the days from to to
// (both 0 when it is undated) is in the window.
func (w Window) Admits(from, to int) bool {
	switch {
	case w.From && (to < w.First || from > w.Last || from < w.First && from != w.Month && from != w.Year):
		return false
	case w.To && (from == 0 || from > w.Last):
		return false
	}
	return true
}

// FirstDays returns the ranges [lo, hi) of first days that the photos the
// window admits can have, or nil when it is open at both ends.
func (w Window) FirstDays() [][2]int {
	switch {
	case w.From:
		hi := w.Last
		if hi < math.MaxInt32 {
			hi++
		}
		ranges := [][2]int{{w.First, hi}}
		days := []int{w.Month}
		if w.Year != w.Month {
			days = append(days, w.Year)
		}
		for _, d := range days {
			if d < w.First {
				ranges = append(ranges, [2]int{d, d + 1})
			}
		}
		return ranges
	case w.To:
		return [][2]int{{1, w.Last + 1}}
	}
	return nil
}

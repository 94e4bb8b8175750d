package caption

import (
	"strings"

	"github.com/syriamap/syriamap/internal/geoparse/textdist"
	"github.com/syriamap/syriamap/internal/photo"
)

// Date is the archive's one date type, photo.Date: a calendar date known
// to a day, a month or a year (its Precision); Month and Day are 0 where
// unknown, and the zero Date means no date.
type Date = photo.Date

// Date precisions, finest first.
const (
	Day   = "day"
	Month = "month"
	Year  = "year"
)

var monthNames = [...]string{"january", "february", "march", "april", "may", "june", "july",
	"august", "september", "october", "november", "december"}

// monthOf returns the month (1–12) a word names, or 0. It takes full names,
// abbreviations of three letters or more ("Sept", "Dec"), and misspellings
// one or two edits from a full name ("Febuary", "Septmber", "Agust").
// Whether the word is a month at all (May, March) is for the caller to
// judge from the numbers around it.
func monthOf(lower string) int {
	if len(lower) < 3 {
		return 0
	}
	for i, m := range monthNames {
		if strings.HasPrefix(m, lower) {
			return i + 1
		}
	}
	if len(lower) < 4 {
		return 0
	}
	// Equally close, the month whose name the word starts with more of
	// wins, as abbreviations are read: "Jule" is July, not June.
	best, bestD, bestP := 0, 3, 0
	for i, m := range monthNames {
		if m[0] != lower[0] { // misspellings keep the first letter
			continue
		}
		max := 1
		if len(m) >= 6 {
			max = 2
		}
		d := textdist.Distance(lower, m, max)
		if p := commonPrefix(lower, m); d <= max && (d < bestD || d == bestD && p > bestP) {
			best, bestD, bestP = i+1, d, p
		}
	}
	return best
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// dateCandidate is one date expression found in a caption.
type dateCandidate struct {
	date       Date
	start, end int // token indexes
	score      int
}

// Words before a date that make it a background date (when a town fell,
// since when something lasts) rather than the day the photo was taken.
var backgroundBefore = map[string]bool{
	"since": true, "until": true, "till": true, "before": true, "after": true, "began": true,
	"begun": true, "started": true, "start": true, "erupted": true, "broke": true, "captured": true,
	"seized": true, "recaptured": true, "retook": true, "retaken": true, "liberated": true, "fell": true,
	"killed": true, "died": true, "last": true, "next": true, "opened": true, "founded": true, "built": true,
	"earlier": true, "later": true, "expected": true, "scheduled": true, "born": true,
}

// farBack is how many words back a clause's verb still makes a date
// background; nearOnly are the background words that do so only within
// four words ("after an air strike on …" is far from its date more often
// than it governs it).
const farBack = 12

var nearOnly = map[string]bool{"after": true, "before": true, "last": true, "next": true, "earlier": true,
	"later": true, "start": true}

var weekdays = map[string]bool{"monday": true, "tuesday": true, "wednesday": true, "thursday": true,
	"friday": true, "saturday": true, "sunday": true}

// Words that make a date background only right before it ("by March
// 2015", "the end of 2014"); further back they belong to something else
// ("provided by SANA on April 20").
var backgroundJustBefore = map[string]bool{"from": true, "between": true, "by": true, "during": true,
	"throughout": true, "end": true, "beginning": true, "start": true}

// Words before a date that weaken it: a release date is the photo's date
// only when the caption gives no other.
var weakBefore = map[string]bool{"provided": true, "released": true, "published": true, "issued": true, "distributed": true, "posted": true, "obtained": true, "received": true, "available": true}

// findDate picks the photo's date among the dates in the caption: the
// finest, in the first sentence or after "taken", not marked as background.
// Numeric dates are read as ISO (2016-09-19) or day first (19/09/2016, the
// usage of the agencies that use numbers); a slash or dot date whose day
// and month could be swapped (03/04/2016) gives only its year.
//
// It calls mark for the tokens of every date expression it reads, the
// background ones too, so that the caller can keep them out of place names.
//
// With a reference date (see ParseAt), relative dates ("on Sunday",
// "yesterday") and days and months without a year ("May 9") are read
// against it (relativeAt); a date the caption writes in full wins over
// them in the same sentence.
func findDate(toks []token, ref Date, skip func(tok int) bool, mark func(tok int)) Date {
	var best dateCandidate
	found := false
	for i := 0; i < len(toks); i++ {
		if skip(i) {
			continue
		}
		c, ok := dateAt(toks, i)
		relative := false
		if !ok {
			c, ok = relativeAt(toks, i, ref)
			relative = true
		}
		if !ok {
			continue
		}
		for k := c.start; k <= c.end; k++ {
			mark(k)
		}
		c.score = scoreDate(toks, c)
		if relative {
			c.score -= 5
		}
		if c.score > -50 && (!found || c.score > best.score) {
			best, found = c, true
		}
		i = c.end
	}
	return best.date
}

// photoWords name the picture itself after a date: "in this May 2, 2016 photo".
var photoWords = map[string]bool{"photo": true, "picture": true, "image": true, "photograph": true, "file": true, "handout": true}

// at returns toks[k], or an empty punctuation token past the end.
func at(toks []token, k int) *token {
	if k < len(toks) {
		return &toks[k]
	}
	return &token{kind: tPunct}
}

func scoreDate(toks []token, c dateCandidate) int {
	score := baseScore(toks, c)
	// Look back a few words for what the date belongs to, and to the
	// clause's start for a verb that makes it the story's ("a baby who
	// later died of hunger on Jan. 11, 2014").
	// A date that ends the first sentence is in the dateline's slot, where
	// the clause before it is the photo's ("… after insurgents seized the
	// area in Idlib province May 29, 2015. REUTERS/…").
	back := farBack
	if next := at(toks, c.end+1); toks[c.start].sentence == 0 && next.kind == tPunct && (next.text == "." || c.end+1 >= len(toks)) {
		back = 4
	}
	for k, n := c.start-1, 0; k >= 0 && n < back; k-- {
		t := &toks[k]
		if t.kind == tPunct {
			// A comma right before the date ends the look back, but for a
			// weekday's: "on Monday, May 2" is one date, while in "captured
			// by rebels, January 11, 2013" the date stands apart from the
			// clause before it.
			if t.text == "-" || t.text == "," && n == 0 && k >= 1 && weekdays[toks[k-1].lower] {
				continue
			}
			break
		}
		n++
		delta, final := wordBefore(toks, c, t, n)
		if final {
			if delta < 0 {
				return -100
			}
			return score + delta
		}
		score += delta
	}
	// "from March 2013 to May 2014", "March 2013 - May 2014": a range.
	if e := c.end + 1; e < len(toks) && (toks[e].lower == "to" || toks[e].lower == "until" || toks[e].is("-") || toks[e].is("–")) {
		if _, ok := dateAt(toks, e+1); ok {
			score -= 15
		}
	}
	return score
}

// baseScore is a date's score by its precision and sentence: a day over
// a month over a year, the first sentence's over the others'.
func baseScore(toks []token, c dateCandidate) int {
	score := 10
	switch c.date.Precision {
	case Day:
		score = 30
	case Month:
		score = 20
	}
	if toks[c.start].sentence == 0 {
		score += 10
	}
	// A year alone after the first sentence is the story's ("the camp
	// opened in 2014"), unless the caption says the photo was taken then.
	if c.date.Precision == Year && toks[c.start].sentence > 0 {
		score -= 60
	}
	return score
}

// wordBefore weighs t, the n-th word before the date c: the change to
// its score, and final when the word decides it (a negative delta then
// means the date is the story's, not the photo's).
func wordBefore(toks []token, c dateCandidate, t *token, n int) (delta int, final bool) {
	if n > 4 {
		if backgroundBefore[t.lower] && !nearOnly[t.lower] {
			return -1, true
		}
		return 0, false
	}
	switch {
	case t.lower == "taken" || t.lower == "shot" || t.lower == "photographed" || t.lower == "pictured":
		return 50, true
	case t.lower == "this" && photoWords[at(toks, c.end+1).lower]:
		return 50, true // "In this Wednesday, Aug. 29, 2012 photo"
	case backgroundBefore[t.lower], n <= 2 && backgroundJustBefore[t.lower]:
		return -1, true
	case weakBefore[t.lower]:
		return -25, false
	case n == 1 && (t.lower == "on" || t.lower == "dated"):
		return 3, false
	}
	return 0, false
}

// dateAt reads a date expression starting at token i.
func dateAt(toks []token, i int) (dateCandidate, bool) {
	if i >= len(toks) {
		return dateCandidate{}, false
	}
	dt := dateTokens(toks)
	rules := wordDateRules[:]
	if toks[i].kind == tNumber {
		rules = numberDateRules[:]
	} else if toks[i].kind != tWord {
		return dateCandidate{}, false
	}
	for _, rule := range rules {
		if d, ok := rule(dt, i); ok {
			return d, true
		}
	}
	return dateCandidate{}, false
}

// The date rules, tried in order at a word and at a number.
var (
	wordDateRules   = [...]func(dateTokens, int) (dateCandidate, bool){monthFirst}
	numberDateRules = [...]func(dateTokens, int) (dateCandidate, bool){dayFirst, isoDate, numericDate, yearAlone}
)

// dateTokens are a caption's tokens as the date rules read them: past the
// end, a token is punctuation.
type dateTokens []token

func (ts dateTokens) at(k int) *token {
	if k < len(ts) {
		return &ts[k]
	}
	return &token{kind: tPunct}
}

// skip passes the tokens what, in order, where they stand at k: the full
// stop of an abbreviated month, a comma.
func (ts dateTokens) skip(k int, what ...string) int {
	for _, w := range what {
		if ts.at(k).is(w) {
			k++
		}
	}
	return k
}

func isYear(x *token) bool {
	return x.kind == tNumber && x.digits == 4 && x.num >= 1950 && x.num <= 2035
}
func isDay(x *token) bool { return x.kind == tNumber && x.digits <= 2 && x.num >= 1 && x.num <= 31 }

// monthFirst reads "October 15, 2012", "October, 15, 2012", "Sept. 3,
// 2016", "February 2014". A month needs a capital and a number after it;
// only then is the word worth matching against the months.
func monthFirst(ts dateTokens, i int) (dateCandidate, bool) {
	t := ts.at(i)
	k := ts.skip(i+1, ".")
	if !(t.upper() || t.allCaps()) || ts.at(k).kind != tNumber && !(ts.at(k).is(",") && ts.at(k+1).kind == tNumber) {
		return dateCandidate{}, false
	}
	m := monthOf(t.lower)
	if m == 0 {
		return dateCandidate{}, false
	}
	if d := ts.skip(k, ","); isDay(ts.at(d)) && !ts.at(d+1).is(":") {
		k = d
		if y := ts.skip(k+1, ","); isYear(ts.at(y)) {
			if validDay(ts.at(y).num, m, ts.at(k).num) {
				return dateCandidate{date: Date{Year: ts.at(y).num, Month: m, Day: ts.at(k).num, Precision: Day}, start: i, end: y}, true
			}
			// February 30: the month and year still stand.
			return dateCandidate{date: Date{Year: ts.at(y).num, Month: m, Precision: Month}, start: i, end: y}, true
		}
	}
	if k = ts.skip(k, ","); isYear(ts.at(k)) {
		return dateCandidate{date: Date{Year: ts.at(k).num, Month: m, Precision: Month}, start: i, end: k}, true
	}
	return dateCandidate{}, false
}

// dayFirst reads "19 September 2016", "the 3rd of March, 2013".
func dayFirst(ts dateTokens, i int) (dateCandidate, bool) {
	t := ts.at(i)
	if !isDay(t) {
		return dateCandidate{}, false
	}
	k := i + 1
	if ts.at(k).lower == "of" {
		k++
	}
	w := ts.at(k)
	y := ts.skip(ts.skip(k+1, "."), ",")
	if w.kind != tWord || !(w.upper() || w.allCaps()) || !isYear(ts.at(y)) && !ts.at(k+1).is(".") {
		return dateCandidate{}, false
	}
	if m := monthOf(w.lower); m != 0 && isYear(ts.at(y)) && validDay(ts.at(y).num, m, t.num) {
		return dateCandidate{date: Date{Year: ts.at(y).num, Month: m, Day: t.num, Precision: Day}, start: i, end: y}, true
	}
	return dateCandidate{}, false
}

// isoDate reads "2016-09-19".
func isoDate(ts dateTokens, i int) (dateCandidate, bool) {
	t := ts.at(i)
	if isYear(t) && ts.at(i+1).is("-") && ts.at(i+2).kind == tNumber && ts.at(i+3).is("-") && ts.at(i+4).kind == tNumber &&
		!ts.at(i+1).space && !ts.at(i+3).space {
		if y, m, d := t.num, ts.at(i+2).num, ts.at(i+4).num; validDay(y, m, d) {
			return dateCandidate{date: Date{Year: y, Month: m, Day: d, Precision: Day}, start: i, end: i + 4}, true
		}
	}
	return dateCandidate{}, false
}

// numericDate reads "19/09/2016", "19.09.2016"; 7/2/2014 is read day
// first too, as the agencies and archives that write numbers do.
func numericDate(ts dateTokens, i int) (dateCandidate, bool) {
	t := ts.at(i)
	if t.digits > 2 || !(ts.at(i+1).is("/") || ts.at(i+1).is(".")) || ts.at(i+2).kind != tNumber || ts.at(i+2).digits > 2 ||
		!ts.at(i+3).is(ts.at(i+1).text) || !isYear(ts.at(i+4)) || ts.at(i+1).space || ts.at(i+2).space {
		return dateCandidate{}, false
	}
	a, b, y := t.num, ts.at(i+2).num, ts.at(i+4).num
	switch {
	case validDay(y, b, a) && (a > 12 || a == b):
		return dateCandidate{date: Date{Year: y, Month: b, Day: a, Precision: Day}, start: i, end: i + 4}, true
	case validDay(y, a, b) && b > 12:
		return dateCandidate{date: Date{Year: y, Month: a, Day: b, Precision: Day}, start: i, end: i + 4}, true
	case validDay(y, b, a):
		return dateCandidate{date: Date{Year: y, Month: b, Day: a, Precision: Day}, start: i, end: i + 4}, true
	}
	return dateCandidate{}, false
}

// yearAlone reads a year alone, but not a piece of a longer number
// (12,2016.5).
func yearAlone(ts dateTokens, i int) (dateCandidate, bool) {
	if t := ts.at(i); isYear(t) && !partOfNumber(ts, i) {
		return dateCandidate{date: Date{Year: t.num, Precision: Year}, start: i, end: i}, true
	}
	return dateCandidate{}, false
}

// partOfNumber reports whether the number at i is joined to another by a
// comma or full stop with no space, as in 1,2016 or 2016.5.
func partOfNumber(toks []token, i int) bool {
	sep := func(t *token) bool { return (t.is(",") || t.is(".")) && !t.space }
	return i >= 2 && sep(&toks[i-1]) && !toks[i].space && toks[i-2].kind == tNumber ||
		i+2 < len(toks) && sep(&toks[i+1]) && !toks[i+2].space && toks[i+2].kind == tNumber
}

func validDay(y, m, d int) bool {
	if m < 1 || m > 12 || d < 1 {
		return false
	}
	days := [...]int{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[m-1]
	if m == 2 && (y%4 == 0 && y%100 != 0 || y%400 == 0) {
		days = 29
	}
	return d <= days
}

package caption

import (
	"strings"
	"time"
)

// Relative dates: "on Sunday", "on Monday night", "yesterday", "last
// week", "أمس", "اليوم السبت", "ليل الأحد", and a day and month written
// without a year ("May 9", "24 تموز"). They are read against the
// caption's reference date (see ParseAt) and never without one: a weekday
// is the latest such day on or before the reference ("last Sunday",
// "الأحد الماضي": before it), "yesterday" the day before it, "last week"
// the month the week before the reference lies in (nothing when that
// week spans two months); a day and a month take the reference's year,
// or the year before when that would put them after it.

// refTime is the reference as a time, when it is known to the day: a
// weekday or "yesterday" needs the day.
func refTime(ref Date) (time.Time, bool) {
	if ref.Precision != Day {
		return time.Time{}, false
	}
	return time.Date(ref.Year, time.Month(ref.Month), ref.Day, 0, 0, 0, 0, time.UTC), true
}

func dayOf(t time.Time) Date {
	return Date{Year: t.Year(), Month: int(t.Month()), Day: t.Day(), Precision: Day}
}

// daysBefore is the day n days before ref (a day-precise reference).
func daysBefore(ref Date, n int) (Date, bool) {
	t, ok := refTime(ref)
	if !ok {
		return Date{}, false
	}
	return dayOf(t.AddDate(0, 0, -n)), true
}

// weekdayOf is the latest day that is wd on or before ref, or strictly
// before it when strict ("last Sunday").
func weekdayOf(ref Date, wd time.Weekday, strict bool) (Date, bool) {
	t, ok := refTime(ref)
	if !ok {
		return Date{}, false
	}
	back := (int(t.Weekday()) - int(wd) + 7) % 7
	if back == 0 && strict {
		back = 7
	}
	return dayOf(t.AddDate(0, 0, -back)), true
}

// lastWeek is the month the week before ref's lies in (Monday to
// Sunday), or no date when it spans two months.
func lastWeek(ref Date) (Date, bool) {
	t, ok := refTime(ref)
	if !ok {
		return Date{}, false
	}
	monday := t.AddDate(0, 0, -((int(t.Weekday())+6)%7)-7)
	sunday := monday.AddDate(0, 0, 6)
	if monday.Month() != sunday.Month() {
		return Date{}, false
	}
	return Date{Year: monday.Year(), Month: int(monday.Month()), Precision: Month}, true
}

// yearless is day and month written without a year, read in ref's year
// (see yearOfRef); ok is false with no reference or no such day.
func yearless(month, day int, ref Date) (Date, bool) {
	y := yearOfRef(month, day, ref)
	if y == 0 || !validDay(y, month, day) {
		return Date{}, false
	}
	return Date{Year: y, Month: month, Day: day, Precision: Day}, true
}

var enWeekdays = map[string]time.Weekday{"sunday": time.Sunday, "monday": time.Monday, "tuesday": time.Tuesday,
	"wednesday": time.Wednesday, "thursday": time.Thursday, "friday": time.Friday, "saturday": time.Saturday}

// dayParts follow a weekday as part of it: "Monday night".
var dayParts = map[string]bool{"night": true, "morning": true, "evening": true, "afternoon": true, "overnight": true}

// notOneDay before a weekday make it no one day: "every Thursday
// night", "next Friday".
var notOneDay = map[string]bool{"every": true, "each": true, "next": true, "this": true, "coming": true, "following": true}

// relativeAt reads a relative date, or a day and month without a year,
// at token i against ref; ok is false for none, and always with the zero
// reference.
func relativeAt(ts dateTokens, i int, ref Date) (dateCandidate, bool) {
	t := ts.at(i)
	one := func(d Date, ok bool, end int) (dateCandidate, bool) {
		return dateCandidate{date: d, start: i, end: end}, ok
	}
	switch {
	case ref.IsZero() || t.kind == tPunct:
		return dateCandidate{}, false
	case t.lower == "yesterday":
		d, ok := daysBefore(ref, 1)
		return one(d, ok, i)
	case t.lower == "last" && ts.at(i+1).lower == "night":
		d, ok := daysBefore(ref, 1)
		return one(d, ok, i+1)
	case t.lower == "last" && ts.at(i+1).lower == "week":
		d, ok := lastWeek(ref)
		return one(d, ok, i+1)
	case t.lower == "last" && ts.at(i+1).upper():
		if wd, isDay := enWeekdays[ts.at(i+1).lower]; isDay {
			d, ok := weekdayOf(ref, wd, true)
			return one(d, ok, i+1)
		}
	case t.upper():
		if wd, isDay := enWeekdays[t.lower]; isDay {
			return weekdayAt(ts, i, wd, ref)
		}
		return yearlessAt(ts, i, ref)
	case t.kind == tNumber:
		return yearlessAt(ts, i, ref)
	}
	return dateCandidate{}, false
}

// weekdayAt reads a weekday at i as a day: after "on" ("early on
// Saturday"), before a part of the day ("Monday night"), or standing
// alone at a clause's end ("in Homs, Tuesday."). A weekday that begins a
// full date ("Tuesday, April 4") is left to it.
func weekdayAt(ts dateTokens, i int, wd time.Weekday, ref Date) (dateCandidate, bool) {
	next := ts.skip(i+1, ",")
	if _, full := dateAt(ts, next); full {
		return dateCandidate{}, false
	}
	if _, part := yearlessAt(ts, next, ref); part {
		return dateCandidate{}, false
	}
	prev := &token{kind: tPunct}
	if i > 0 {
		prev = &ts[i-1]
	}
	end := i
	if dayParts[ts.at(i+1).lower] {
		end = i + 1
	}
	after := ts.at(end + 1)
	switch {
	case notOneDay[prev.lower]:
		return dateCandidate{}, false
	case prev.lower == "on", end > i,
		prev.is(",") && after.kind == tPunct && !after.is("-"):
		d, ok := weekdayOf(ref, wd, false)
		return dateCandidate{date: d, start: i, end: end}, ok
	}
	return dateCandidate{}, false
}

// yearlessAt reads "May 9", "May 9th", "9 May", "the 9th of May" with no
// year after them, in ref's year.
func yearlessAt(ts dateTokens, i int, ref Date) (dateCandidate, bool) {
	t := ts.at(i)
	if t.kind == tWord && (t.upper() || t.allCaps()) {
		k := ts.skip(i+1, ".")
		if m := monthNamed(t.lower); m != 0 && isDay(ts.at(k)) && !ts.at(k+1).is(":") && !yearAfter(ts, k+1) && !numberGoesOn(ts, k+1) {
			d, ok := yearless(m, ts.at(k).num, ref)
			return dateCandidate{date: d, start: i, end: k}, ok
		}
		return dateCandidate{}, false
	}
	if !isDay(t) {
		return dateCandidate{}, false
	}
	k := i + 1
	if ts.at(k).lower == "of" {
		k++
	}
	w := ts.at(k)
	if w.kind != tWord || !(w.upper() || w.allCaps()) || yearAfter(ts, ts.skip(k+1, ".")) {
		return dateCandidate{}, false
	}
	if m := monthNamed(w.lower); m != 0 {
		d, ok := yearless(m, t.num, ref)
		return dateCandidate{date: d, start: i, end: k}, ok
	}
	return dateCandidate{}, false
}

// monthNamed is the month a word names in full or by its abbreviation
// ("Aug", "Sept"), or 0: a day and month without a year have no year to
// make a name like a month one ("Marc 5", "Jane 7").
func monthNamed(lower string) int {
	for i, m := range monthNames {
		if lower == m || lower == m[:3] || lower == "sept" && i == 8 {
			return i + 1
		}
	}
	return 0
}

// yearAfter reports whether a year follows at k, after a comma or not.
func yearAfter(ts dateTokens, k int) bool { return isYear(ts.at(ts.skip(k, ","))) }

// numberGoesOn reports a number joined to the next ("May 9-10", "May
// 9/10"): not one day.
func numberGoesOn(ts dateTokens, k int) bool {
	t := ts.at(k)
	return (t.is("-") || t.is("/") || t.is("–")) && ts.at(k+1).kind == tNumber
}

// arWeekdays are the weekdays as Arabic writes them with the article,
// folded.
var arWeekdays = map[string]time.Weekday{"الاحد": time.Sunday, "الاثنين": time.Monday, "الثلاثاء": time.Tuesday,
	"الاربعاء": time.Wednesday, "الخميس": time.Thursday, "الجمعه": time.Friday, "السبت": time.Saturday}

// arDayParts before a weekday make it one day: "اليوم السبت" (today,
// Saturday), "يوم الجمعة", "ليل الأحد", "صباح الاثنين".
var arDayParts = map[string]bool{"اليوم": true, "يوم": true, "ليل": true, "ليله": true, "صباح": true, "مساء": true,
	"فجر": true, "ظهر": true, "عصر": true, "ظهيره": true, "نهار": true}

// arYesterday are "yesterday" and "the day before yesterday" (أمس الأول,
// "أول أمس"), folded, with a joined preposition or not.
var arYesterday = map[string]bool{"امس": true, "الامس": true, "بالامس": true, "البارحه": true}

// arRelativeAt reads an Arabic relative date at toks[i] against ref: the
// date and the last token it takes.
func arRelativeAt(toks []arTok, i int, ref Date) (Date, int, bool) {
	w := toks[i].fold
	next := func(k int) string {
		if k < len(toks) && !toks[k].punct {
			return toks[k].fold
		}
		return ""
	}
	switch {
	case toks[i].punct:
		return Date{}, 0, false
	case w == "اول" && arYesterday[next(i+1)]:
		d, ok := daysBefore(ref, 2)
		return d, i + 1, ok
	case arYesterday[w] && next(i+1) == "الاول":
		d, ok := daysBefore(ref, 2)
		return d, i + 1, ok
	case arYesterday[w]:
		d, ok := daysBefore(ref, 1)
		return d, i, ok
	case w == "الاسبوع" && strings.HasPrefix(next(i+1), "الماضي"):
		d, ok := lastWeek(ref)
		return d, i + 1, ok
	}
	wd, isDay := arWeekdays[w]
	if !isDay {
		return Date{}, 0, false
	}
	if n := next(i + 1); strings.HasPrefix(n, "الماضي") || n == "الفائت" {
		d, ok := weekdayOf(ref, wd, true)
		return d, i + 1, ok
	}
	// A weekday before a number begins a full date ("السبت 16 نيسان"),
	// read by arDateAt.
	if i+1 < len(toks) && toks[i+1].num >= 0 {
		return Date{}, 0, false
	}
	prev := i - 1
	afterDayPart := prev >= 0 && !toks[prev].punct && arDayParts[toks[prev].fold]
	standsAlone := (prev < 0 || toks[prev].punct && toks[prev].text != "(") && (i+1 >= len(toks) || toks[i+1].punct)
	if afterDayPart || standsAlone {
		d, ok := weekdayOf(ref, wd, false)
		return d, i, ok
	}
	return Date{}, 0, false
}

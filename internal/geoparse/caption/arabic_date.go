package caption

import (
	"time"

	"github.com/syriamap/syriamap/internal/photo"
)

// The month names of Arabic captions, folded: the Levantine ones (كانون
// الثاني … كانون الأول; تشرين الأول and الثاني; AFP writes "ت2" for the
// latter) and the Egyptian and Gulf ones from the Latin names (يناير …
// ديسمبر), which captions often write side by side ("تشرين الاول/اكتوبر").
var arMonths = map[string]int{
	"شباط": 2, "اذار": 3, "نيسان": 4, "ايار": 5, "حزيران": 6, "تموز": 7, "اب": 8, "ايلول": 9,
	"يناير": 1, "فبراير": 2, "مارس": 3, "ابريل": 4, "مايو": 5, "يونيو": 6, "يونيه": 6, "يوليو": 7, "يوليه": 7,
	"اغسطس": 8, "اغسطوس": 8, "سبتمبر": 9, "اكتوبر": 10, "نوفمبر": 11, "ديسمبر": 12,
	"ك2": 1, "ك1": 12, "ت1": 10, "ت2": 11,
}

// arTwoWordMonths are the Levantine months of two words: the first word
// and, by the second, the month.
var arTwoWordMonths = map[string]map[string]int{
	"كانون": {"الثاني": 1, "الاول": 12, "ثاني": 1, "اول": 12},
	"تشرين": {"الاول": 10, "الثاني": 11, "اول": 10, "ثاني": 11},
}

// arMonthAt reads the month names at toks[i] — one, or several for one
// month joined by a slash or a space ("تشرين الاول/اكتوبر", "نوفمبر
// تشرين الثاني") — and returns the month and the index after them, or 0.
func arMonthAt(toks []arTok, i int) (month, next int) {
	for {
		m, n := arOneMonth(toks, i)
		if m == 0 || month != 0 && m != month {
			break
		}
		month, next = m, n
		i = n
		if i < len(toks) && toks[i].punct && toks[i].text == "/" {
			i++
		}
	}
	return month, next
}

func arOneMonth(toks []arTok, i int) (int, int) {
	if i >= len(toks) || toks[i].punct {
		return 0, i
	}
	w := toks[i].fold
	if second, ok := arTwoWordMonths[w]; ok && i+1 < len(toks) {
		if m := second[toks[i+1].fold]; m != 0 {
			return m, i + 2
		}
		return 0, i
	}
	return arMonths[w], i + 1
}

func arYear(t *arTok) bool { return t.digits == 4 && t.num >= 1900 && t.num <= 2100 }

// arabicDate finds the photo's date: "19 تشرين الاول/اكتوبر 2017", "24
// أبريل 2016", "الثلاثاء 3 أيار 2016", "15 من آب 2018" (a day); "آذار
// 2013" (a month); "3/5/2016" (day first) and "2012/08/17"; "عام 2013" or
// a year alone; "21 من آب" in the year of ref, when it has one (see
// ParseAt). The most precise date wins, the first of equals; its tokens
// are marked used.
func arabicDate(toks []arTok, ref Date) Date {
	var best Date
	var bestFrom, bestTo int
	rank := map[string]int{"": 0, "year": 1, "month": 2, "day": 3}
	for i := range toks {
		if toks[i].used {
			continue
		}
		d, to, ok := arDateAt(toks, i, ref)
		if !ok {
			continue
		}
		if _, err := photo.ParseDate(d.String()); err == nil && rank[d.Precision] > rank[best.Precision] {
			best, bestFrom, bestTo = d, i, to
		}
	}
	// A relative date ("أمس", "اليوم السبت") is read against ref when the
	// caption writes no day of its own.
	if best.Precision != "day" && !ref.IsZero() {
		for i := range toks {
			if d, to, ok := arRelativeAt(toks, i, ref); ok && !toks[i].used && rank[d.Precision] > rank[best.Precision] {
				best, bestFrom, bestTo = d, i, to
				break
			}
		}
	}
	if best.IsZero() {
		return best
	}
	for k := bestFrom; k <= bestTo; k++ {
		toks[k].used = true
	}
	return best
}

// arDateAt reads the date written from token i, if one is, and the last
// token it takes: the first of the forms arabicDate names that fits.
func arDateAt(toks []arTok, i int, ref Date) (d Date, to int, ok bool) {
	t := &toks[i]
	// sep reports whether tokens a and b are the same separator.
	sep := func(a, b int) bool { return toks[a].punct && toks[b].punct && toks[a].text == toks[b].text }
	switch {
	case t.num >= 1 && t.num <= 31 && t.digits <= 2:
		// day month year, day من month year ("15 من آب 2018"); day
		// month with no year, in the reference's year
		if m, n := arMonthAt(toks, arSkip(toks, i+1, arDayFillers)); m != 0 {
			if y := arYearAt(toks, n); y >= 0 {
				return Date{Year: toks[y].num, Month: m, Day: t.num, Precision: "day"}, y, true
			}
			if y := yearOfRef(m, t.num, ref); y != 0 {
				return Date{Year: y, Month: m, Day: t.num, Precision: "day"}, n - 1, true
			}
		}
		// d/m/yyyy, d-m-yyyy, d.m.yyyy
		if i+4 < len(toks) && sep(i+1, i+3) && toks[i+2].num >= 1 && toks[i+2].num <= 12 && toks[i+2].digits <= 2 && arYear(&toks[i+4]) {
			return Date{Year: toks[i+4].num, Month: toks[i+2].num, Day: t.num, Precision: "day"}, i + 4, true
		}
	case arYear(t):
		// yyyy/mm/dd, yyyy-mm-dd
		if i+4 < len(toks) && sep(i+1, i+3) && toks[i+2].num >= 1 && toks[i+2].num <= 12 && toks[i+4].num >= 1 && toks[i+4].num <= 31 && toks[i+4].digits <= 2 {
			return Date{Year: t.num, Month: toks[i+2].num, Day: toks[i+4].num, Precision: "day"}, i + 4, true
		}
		return Date{Year: t.num, Precision: "year"}, i, true
	}
	// month year, month من العام year
	if m, n := arMonthAt(toks, i); m != 0 {
		if y := arYearAt(toks, n); y >= 0 {
			return Date{Year: toks[y].num, Month: m, Precision: "month"}, y, true
		}
	}
	return Date{}, 0, false
}

// The words a date may hold between its day and its month ("15 من شهر
// آب", the 15th of the month of August) and between its month and its
// year ("آب من عام 2018", August of the year 2018), folded.
var (
	arDayFillers  = map[string]bool{"من": true, "شهر": true}
	arYearFillers = map[string]bool{"من": true, "عام": true, "العام": true, "لعام": true, "سنه": true, "السنه": true}
)

// arYearAt returns the index of the year written from i, after the
// fillers of arYearFillers and a comma ("16 تموز، 2018"), or -1.
func arYearAt(toks []arTok, i int) int {
	y := arSkip(toks, i, arYearFillers)
	if y < len(toks) && toks[y].punct && (toks[y].text == "،" || toks[y].text == ",") {
		y = arSkip(toks, y+1, arYearFillers)
	}
	if y < len(toks) && arYear(&toks[y]) {
		return y
	}
	return -1
}

// arSkip returns the index of the first token from i whose word is not
// one of fillers.
func arSkip(toks []arTok, i int, fillers map[string]bool) int {
	for i < len(toks) && !toks[i].punct && fillers[toks[i].fold] {
		i++
	}
	return i
}

// yearOfRef is the year a day and month written without one are read in:
// ref's, or the year before when that would put the day after ref (a
// photo is taken before the page that shows it is published); 0 when
// ref is the zero Date. A page is often updated after the day its
// address gives, so a day up to pageUpdateDays after a day-precise ref
// still takes its year (or the next, across the new year: "3 January" on
// a page of 30 December).
func yearOfRef(month, day int, ref Date) int {
	switch {
	case ref.Year == 0:
		return 0
	case ref.Precision == Day:
		limit := time.Date(ref.Year, time.Month(ref.Month), ref.Day+pageUpdateDays, 0, 0, 0, 0, time.UTC)
		for y := ref.Year + 1; y >= ref.Year-1; y-- {
			if !time.Date(y, time.Month(month), day, 0, 0, 0, 0, time.UTC).After(limit) {
				return y
			}
		}
		return ref.Year - 1
	case ref.Month != 0 && month > ref.Month:
		return ref.Year - 1
	}
	return ref.Year
}

// pageUpdateDays is how long after the day a page's address gives a
// caption on it may still be dated: galleries are updated for a week.
const pageUpdateDays = 7

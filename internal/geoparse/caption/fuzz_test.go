package caption

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/syriamap/syriamap/internal/photo"
)

var fuzzSeeds = []string{
	"Internally displaced Syrian children who fled Raqqa city stand near their tent in Ras al-Ain province, Syria January 22, 2017. (Photo by Rodi Said/Reuters)",
	"ALEPPO, SYRIA - DECEMBER 13: People wait. (Photo by Ibrahim Ebu Leys/Anadolu Agency/Getty Images)",
	"In this Sunday, Feb. 18, 2018 photo, Syrians walk. (AP Photo/Hassan Ammar, File)",
	"Syrians in Aleppo, 5/17/2015. / AFP PHOTO / ZEIN AL-RIFAI TPX IMAGES OF THE DAY",
	"Homs' Baba Amr, Aleppo's old city, “I Love Damascus”, رأس العين, Ra's al-'Ayn, mid-2012",
	"((((/)))) / / via for - – , , 31/31/2016 2016-13-40 Sept. . .",
	"جنود من قوات سوريا الديمقراطية في شمال الرقة يوم 19 نوفمبر تشرين الثاني 2016. تصوير: رودي سعيد - رويترز",
	"دخان يتصاعد اثر غارة على بلدة حرستا في 15 ت2/نوفمبر 2017.\n\n(afp_tickers)",
	"أ ف ب «» (أ.ف.ب) بحلب وبالرقة للرقة ٢٠١٦/٠٨/١٧ تصوير: عدسة: المصدر: ( أ ب ) Aleppo في",
	"مدينة جرجناز- 28 من تموز 2018 (فيس بوك- شبكة جرجناز الإخبارية) 21 من آب من من 3 من",
	"Smoke rises over Douma on Monday night, yesterday, last week, last Sunday, May 9, 9 May, May 9-10, Every Thursday night, Homs, Friday.",
	"قصف على درعا أمس الأول، اليوم السبت، ليل الأحد، الثلاثاء الماضي، الأسبوع الماضي، 24 تموز، 16من تموز 2018م، 16 تموز، 2018، الجمعة.",
	"",
}

// fuzzRef is the reference date FuzzParse reads every text against too:
// a Monday, 1 January, so that weekdays and days without a year fall in
// the year before.
var fuzzRef = Date{Year: 2018, Month: 1, Day: 1, Precision: Day}

// FuzzParse checks that any text is read without a panic and that what
// comes back points inside it.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		c := Parse(text)
		if c.CreditEnd < c.CreditStart || c.CreditEnd > len(text) {
			t.Fatalf("credit span %d..%d outside %d bytes", c.CreditStart, c.CreditEnd, len(text))
		}
		last := -1
		for _, m := range c.Mentions {
			if m.Start < 0 || m.End > len(text) || m.Start >= m.End || text[m.Start:m.End] != m.Text {
				t.Fatalf("mention %+v does not fit the text", m)
			}
			if m.Start < last {
				t.Fatalf("mentions out of order at %+v", m)
			}
			last = m.Start
		}
		if s := c.Date.String(); !c.Date.IsZero() && len(s) < 4 {
			t.Fatalf("date %q", s)
		}
		// Read against a reference, a date is a calendar date.
		if d := ParseAt(text, fuzzRef).Date; !d.IsZero() {
			if _, err := photo.ParseDate(d.String()); err != nil {
				t.Fatalf("date %v against %v: %v", d, fuzzRef, err)
			}
		}
		if utf8.ValidString(text) && (!utf8.ValidString(c.Credit.Photographer) || !utf8.ValidString(c.Credit.Agency)) {
			t.Fatalf("credit %+v is not UTF-8", c.Credit)
		}
	})
}

// FuzzSplit checks that splitting loses and adds nothing but white space.
func FuzzSplit(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s + "\n\n" + s)
	}
	squeeze := func(s string) string { return strings.Join(strings.Fields(s), "") }
	f.Fuzz(func(t *testing.T, doc string) {
		captions := Split(doc)
		if !utf8.ValidString(doc) {
			return // the commands refuse such text; joining bytes can make new runes
		}
		if got := squeeze(strings.Join(captions, "")); got != squeeze(doc) {
			t.Fatalf("Split(%q) = %q: text lost or added", doc, captions)
		}
		for _, c := range captions {
			if strings.TrimSpace(c) == "" {
				t.Fatalf("Split(%q) gave an empty caption", doc)
			}
		}
	})
}

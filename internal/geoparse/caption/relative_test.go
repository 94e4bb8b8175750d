package caption

import (
	"testing"

	"github.com/syriamap/syriamap/internal/photo"
)

// TestRelativeDate reads relative dates and days and months without a
// year against a reference date (a Tuesday, 17 July 2018: the day a page
// was published), in both languages: a weekday is the latest such day on
// or before it, "yesterday" the day before; without a reference they give
// no date, never a guessed year (issue 69, item 2).
func TestRelativeDate(t *testing.T) {
	tue := Date{Year: 2018, Month: 7, Day: 17, Precision: Day}
	early := Date{Year: 2018, Month: 7, Day: 3, Precision: Day}
	july := Date{Year: 2018, Month: 7, Precision: Month}
	tests := []struct {
		name, text string
		ref        Date
		want       string
	}{
		{"on a weekday", "Syrians gather in the Waer neighbourhood of Homs on Sunday. REUTERS/Name", tue, "2018-07-15"},
		{"on a weekday night", "Smoke rises over Douma on Monday night after air strikes.", tue, "2018-07-16"},
		{"early on", "A first batch of evacuees arrived at a rebel checkpoint early on Saturday [Khalil Ashawi/Reuters]", tue, "2018-07-14"},
		{"the reference's own weekday", "A man walks in Azaz on Tuesday.", tue, "2018-07-17"},
		{"a weekday at a clause's end", "A man inspects the damage in Homs, Syria, Friday. (AP Photo)", tue, "2018-07-13"},
		{"yesterday", "Rescuers search the rubble in Idlib yesterday.", tue, "2018-07-16"},
		{"last night", "Fires burn in Raqqa last night.", tue, "2018-07-16"},
		{"last weekday is before the reference", "Mourners in Daraa last Tuesday.", tue, "2018-07-10"},
		{"last week in one month", "Displaced families in Atmeh last week.", tue, "2018-07"},
		{"last week over two months", "Displaced families in Atmeh last week.", early, ""},
		{"last week's is another's", "A boy examines the aftermath of last week's airstrikes in Arbin [Qusay Noor]", tue, ""},
		{"month day", "Fighters in Deraa May 9. REUTERS/Name", tue, "2018-05-09"},
		{"day month", "Fighters in Deraa on 9 May. EPA/NAME", tue, "2018-05-09"},
		{"a day a week after the reference is last year's", "Fighters in Deraa on July 30.", tue, "2017-07-30"},
		{"a day just after the reference is its year's (a page updated)", "Fighters advance in Aleppo on Dec.14. (AFP)", Date{Year: 2016, Month: 12, Day: 13, Precision: Day}, "2016-12-14"},
		{"across the new year", "Fighters advance in Aleppo on 3 January.", Date{Year: 2016, Month: 12, Day: 30, Precision: Day}, "2017-01-03"},
		{"a month reference", "Fighters in Deraa on July 9.", july, "2018-07-09"},
		{"a weekday needs a day reference", "Fighters in Deraa on Sunday.", july, ""},
		{"a full date wins", "Smoke rises on Sunday over Douma, Syria, July 1, 2018. REUTERS/Name", tue, "2018-07-01"},
		{"a weekday that begins a full date", "Smoke rises over Douma on Sunday, July 1. REUTERS/Name", tue, "2018-07-01"},
		{"every week is no day", "Every Thursday night, the media office writes the banner for the protest.", tue, ""},
		{"Friday prayers are no day", "Men attend Friday prayers at a tented mosque in Zaatari camp.", tue, ""},
		{"a span is no day", "Fighters in Deraa May 9-10.", tue, ""},
		{"a name like a month is no month without a year", "A portrait of Marc 5 times over, by Jane 7 of Homs.", tue, ""},
		{"no reference, no weekday", "Syrians gather in Homs on Sunday.", Date{}, ""},
		{"no reference, no year", "Fighters in Deraa May 9.", Date{}, ""},

		{"أمس", "أفراد الدفاع المدني يحملون مصابا في موقع انفجار سيارة مفخخة في إدلب أمس. (رويترز)", tue, "2018-07-16"},
		{"بالأمس", "دمار في حي الشعار بالأمس", tue, "2018-07-16"},
		{"أمس الأول", "قصف على دوما أمس الأول", tue, "2018-07-15"},
		{"اليوم السبت", "قصف على بلدة كفرنبل اليوم السبت (الدفاع المدني)", tue, "2018-07-14"},
		{"ليل الأحد", "غارات على مدينة خان شيخون ليل الأحد", tue, "2018-07-15"},
		{"يوم الجمعة", "مظاهرة في مدينة إدلب يوم الجمعة", tue, "2018-07-13"},
		{"a weekday alone between commas", "لحظة لقاء أحد النازحين مع أسرهم في قرية جبرين شمال شرقي حلب، الجمعة.", tue, "2018-07-13"},
		{"الثلاثاء الماضي", "قصف على حي الوعر الثلاثاء الماضي", tue, "2018-07-10"},
		{"الأسبوع الماضي", "نازحون في مخيم أطمة الأسبوع الماضي", tue, "2018-07"},
		{"Friday prayer is no day", "مصلون بعد صلاة الجمعة في مدينة إدلب", tue, ""},
		{"day month, no year", "انتشال ضحايا في مدينة معرة النعمان بإدلب - 16 تموز (الدفاع المدني)", tue, "2018-07-16"},
		{"day month a week after the reference", "غارات على بلدة التمانعة - 30 تموز (عنب بلدي)", tue, "2017-07-30"},
		{"day month days after the reference", "غارات على بلدة التمانعة - 24 تموز (عنب بلدي)", tue, "2018-07-24"},
		{"a weekday before a day and month", "استهداف حي صلاح الدين بحلب - السبت 14 تموز (عنب بلدي)", tue, "2018-07-14"},
		{"no reference, no yesterday", "سوريون أثناء دخولهم إلى مدينة حمص أمس.", Date{}, ""},
		{"no reference, no weekday", "قصف على بلدة كفرنبل اليوم السبت", Date{}, ""},
		{"a written date wins over yesterday", "قصف على درعا أمس، 12 تموز 2018", tue, "2018-07-12"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ParseAt(tt.text, tt.ref).Date.String(); got != tt.want {
				t.Errorf("ParseAt(%q, %v).Date = %q, want %q", tt.text, tt.ref, got, tt.want)
			}
		})
	}
}

// TestArabicDayOfMonthIsADay: "16 من تموز 2018", as Enab Baladi writes
// it, is 16 July 2018, a day, however the day, the month and the year
// are joined (issue 69, item 2).
func TestArabicDayOfMonthIsADay(t *testing.T) {
	for _, text := range []string{
		"قصف على درعا - 16 من تموز 2018 (عنب بلدي)",
		"قصف على درعا 16من تموز 2018",
		"قصف على درعا 16 تموز، 2018",
		"قصف على درعا 16 من تموز عام 2018م",
		"قصف على درعا الاثنين، 16 من تموز، 2018",
	} {
		d := Parse(text).Date
		if want := (photo.Date{Year: 2018, Month: 7, Day: 16, Precision: Day}); d != want {
			t.Errorf("%s: date %v (%s), want 2018-07-16 (day)", text, d, d.Precision)
		}
	}
}

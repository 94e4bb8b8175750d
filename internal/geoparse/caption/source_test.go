package caption

import "testing"

// The sources a Syrian archive holds — media centres, the civil defence,
// activists' networks, social networks — are the credit's agency, in
// either script: one the table of sources knows under its ID
// (lexicon.Agencies; issue 66, item 4), another as the caption writes
// it; a bracketed remark that names no kind of source is no credit
// (issue 53, part 5).
func TestSourceCredit(t *testing.T) {
	for _, tc := range []struct {
		text, photographer, agency string
	}{
		{"دمار في دوما بالغوطة الشرقية – 9 شباط 2018 (مركز الغوطة الإعلامي)", "", "Ghouta Media Center"},
		{"عناصر من الدفاع المدني ينتشلون طفلا في ادلب (الدفاع المدني السوري)", "", "Syrian Civil Defence"},
		{"قصف على حي الشعار في حلب (فيسبوك)", "", "Facebook"},
		{"طفل في مخيم اطمة «شبكة شام الإخبارية»", "", "Shaam News Network"},
		{"آثار القصف على دوما (تنسيقية دوما)", "", "تنسيقية دوما"},
		{"تصوير: أحمد محمد (مركز حلب الإعلامي)", "أحمد محمد", "Aleppo Media Center"},
		{"Civil defence members search rubble in Douma, Syria, February 9, 2018. (Ghouta Media Center)", "", "Ghouta Media Center"},
		{"Rescuers in Idlib, Syria, April 4, 2017. (Idlib Media Office)", "", "Idlib Media Office"},
		{"Smoke rises over Idlib, Syria, April 4, 2017, in a picture posted via Facebook.", "", "Facebook"},
		{"A man walks in Aleppo, Syria, May 3, 2016 (local time).", "", ""},
		{"قصف على حلب (الصورة أرشيفية)", "", ""},
		{"A protest in Kafranbel, Syria (the banner reads: network of free Syrians stands with Aleppo and Homs and Hama today).", "", ""},
		{"Boys in Aleppo, Syria. (Photo by A. Person/Reuters)", "A. Person", "Reuters"},
	} {
		c := Parse(tc.text)
		if c.Credit.Photographer != tc.photographer || c.Credit.Agency != tc.agency {
			t.Errorf("%q: credit %q / %q, want %q / %q", tc.text, c.Credit.Photographer, c.Credit.Agency, tc.photographer, tc.agency)
		}
	}
}

// TestOneSourceBothScripts: a source credited in Arabic and the same
// source credited in English are one agency, whichever of its names the
// caption writes; its words in a sentence are no credit (issue 66,
// item 4).
func TestOneSourceBothScripts(t *testing.T) {
	for _, tc := range []struct{ name, text, agency string }{
		{"civil defence, Arabic", "قصف جوي على بلدة معرشورين جنوب إدلب - 21 من آب (الدفاع المدني)", "Syrian Civil Defence"},
		{"civil defence, Arabic, after a word", "لقصف التي طال حي الفردوس 16 تشرين الثاني_(الدفاع المدني)", "Syrian Civil Defence"},
		{"white helmets, Arabic", "انتشال طفلة من تحت الأنقاض في إدلب (الخوذ البيضاء)", "Syrian Civil Defence"},
		{"civil defence, English", "Rescuers search the rubble in Idlib, Syria, May 3, 2019. (Syrian Civil Defense/White Helmets)", "Syrian Civil Defence"},
		{"white helmets, English", "Rescuers search the rubble in Idlib, Syria. (Photo: The White Helmets)", "Syrian Civil Defence"},
		{"media centre, Arabic", "الدفاع المدني ينتشل طفلة في حي المرجة في مدينة حلب- الجمعة 23 أيلول (مركز حلب الإعلامي)", "Aleppo Media Center"},
		{"media centre, short", "ناشط في مركز الغوطة الإعلامي في الغوطة الشرقية - 19 تشرين الثاني 2018 (مركز الغوطة)", "Ghouta Media Center"},
		{"media centre of a town", "آثار القصف على سوق مدينة معرة النعمان - 8 تشرين الأول 2017 (مركز المعرة الإعلامي)", "Maarrat al-Numan Media Center"},
		{"media centre, English", "Smoke rises over Idlib, Syria, April 4, 2017. (Edlib Media Center)", "Idlib Media Center"},
		{"facebook in two words", "حريق بمخيم للاجئين السوريين في لبنان - 3 من كانون الأول (فيس بوك)", "Facebook"},
		{"facebook before a page's name", "مدينة جرجناز- 28 من تموز 2018 (فيس بوك- شبكة جرجناز الإخبارية)", "Facebook"},
		{"twitter", "دخان يتصاعد فوق إدلب (تويتر)", "Twitter"},
		{"activists", "قصف على بلدة كفرنبل جنوب إدلب (ناشطون)", "Activists"},
		{"activists, English", "A boy in Douma, Syria, February 2018. (Photo: activists)", "Activists"},
		{"a source the table lacks", "آثار القصف على دوما (تنسيقية دوما)", "تنسيقية دوما"},
		{"the civil defence in a sentence", "عناصر من الدفاع المدني ينتشلون طفلا في ادلب", ""},
		{"activists in a sentence", "ناشطون يوزعون المساعدات في حلب", ""},
		{"the mountain, not the agency", "منظر لدمشق من جبل قاسيون", ""},
	} {
		if got := Parse(tc.text).Credit.Agency; got != tc.agency {
			t.Errorf("%s: %s\n  agency %q, want %q", tc.name, tc.text, got, tc.agency)
		}
	}
}

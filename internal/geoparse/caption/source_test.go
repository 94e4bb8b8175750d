package caption

import "testing"

// The sources a Syrian archive holds — media centres, the civil defence,
// activists' networks, social networks — are the credit's agency as the
// caption writes them, in either script; a bracketed remark that names no
// kind of source is no credit (issue 53, part 5).
func TestSourceCredit(t *testing.T) {
	for _, tc := range []struct {
		text, photographer, agency string
	}{
		{"دمار في دوما بالغوطة الشرقية – 9 شباط 2018 (مركز الغوطة الإعلامي)", "", "مركز الغوطة الإعلامي"},
		{"عناصر من الدفاع المدني ينتشلون طفلا في ادلب (الدفاع المدني السوري)", "", "الدفاع المدني السوري"},
		{"قصف على حي الشعار في حلب (فيسبوك)", "", "فيسبوك"},
		{"طفل في مخيم اطمة «شبكة شام الإخبارية»", "", "شبكة شام الإخبارية"},
		{"آثار القصف على دوما (تنسيقية دوما)", "", "تنسيقية دوما"},
		{"تصوير: أحمد محمد (مركز حلب الإعلامي)", "أحمد محمد", "مركز حلب الإعلامي"},
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

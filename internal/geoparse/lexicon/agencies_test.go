package lexicon

import (
	"strings"
	"testing"
)

// TestAgencyOneNameBothScripts: a source credited under any of its names,
// in either script, is one agency with one ID and a name per language
// (issue 66, item 4).
func TestAgencyOneNameBothScripts(t *testing.T) {
	for _, c := range []struct{ name, id, en, ar string }{
		{"الدفاع المدني", "Syrian Civil Defence", "Syrian Civil Defence (White Helmets)", "الدفاع المدني السوري"},
		{"Syrian Civil Defense", "Syrian Civil Defence", "Syrian Civil Defence (White Helmets)", "الدفاع المدني السوري"},
		{"the White Helmets", "Syrian Civil Defence", "Syrian Civil Defence (White Helmets)", "الدفاع المدني السوري"},
		{"الخوذ البيضاء", "Syrian Civil Defence", "Syrian Civil Defence (White Helmets)", "الدفاع المدني السوري"},
		{"مركز الغوطة الاعلامي", "Ghouta Media Center", "Ghouta Media Center", "مركز الغوطة الإعلامي"},
		{"فيس بوك", "Facebook", "Facebook", "فيسبوك"},
		{"FACEBOOK", "Facebook", "Facebook", "فيسبوك"},
		{"ناشطون", "Activists", "Activists", "ناشطون"},
		{"عنب بلدي", "Enab Baladi", "Enab Baladi", "عنب بلدي"},
		{"Hawar News Agency (ANHA)", "Hawar News", "Hawar News Agency (ANHA)", "وكالة هاوار للأنباء"},
	} {
		a, ok := AgencyOf(c.name)
		if !ok || a.ID != c.id || a.Name("en") != c.en || a.Name("ar") != c.ar {
			t.Errorf("%q: %+v (%v), want %s named %q and %q", c.name, a, ok, c.id, c.en, c.ar)
		}
	}
	if got := AgencyID(" تنسيقية دوما "); got != "تنسيقية دوما" {
		t.Errorf("a source the table lacks: %q, want it as written", got)
	}
	if got := AgencyName("Reuters", "ar"); got != "Reuters" {
		t.Errorf("an agency the table lacks is named by its value: %q", got)
	}
}

// TestAgencyTable: every row has a page that names it and its marks are
// known ones; two agencies never share a name.
func TestAgencyTable(t *testing.T) {
	if len(Agencies()) < 20 {
		t.Fatalf("%d agencies", len(Agencies()))
	}
	for _, a := range Agencies() {
		if !strings.HasPrefix(a.Source, "http") && !strings.HasPrefix(a.Source, "(") {
			t.Errorf("%s: source %q is no page", a.ID, a.Source)
		}
		for _, s := range a.Spellings {
			mark, w := SpellingMark(s)
			arabic := strings.ContainsFunc(w, IsArabic)
			if mark != MarkAnywhere && !arabic || !arabic && strings.ToLower(w) != w || strings.TrimSpace(w) != w || w == "" {
				t.Errorf("%s: spelling %q", a.ID, s)
			}
		}
	}
	if _, err := readAgencies("A\tA\tأ\t\thttp://a\nB\tB\tب\ta\thttp://b\n"); err == nil {
		t.Error("two agencies under one name read without an error")
	}
	if _, err := readAgencies("A\tA\n"); err == nil {
		t.Error("a row of two columns read without an error")
	}
}

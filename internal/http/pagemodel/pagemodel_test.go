package pagemodel

import (
	"slices"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/geodata"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/internal/photo"
)

func TestMonthBars(t *testing.T) {
	for _, c := range []struct {
		name        string
		bins        []photo.MonthCount
		n           int
		first, last string
		full        []int // bars at full height
	}{
		{"none", nil, 0, "", "", nil},
		{"year-only bins are left out", []photo.MonthCount{{Month: "2016", Count: 9}}, 0, "", "", nil},
		{"one month shows its year", []photo.MonthCount{{Month: "2016-07", Count: 3}}, 12, "January 2016", "December 2016", []int{6}},
		{"whole years across a gap", []photo.MonthCount{{Month: "2013-02", Count: 1}, {Month: "2015-11", Count: 4}}, 36, "January 2013", "December 2015", []int{34}},
	} {
		t.Run(c.name, func(t *testing.T) {
			bars, first, last := MonthBars(i18n.Locale{}, c.bins)
			if len(bars) != c.n || first != c.first || last != c.last {
				t.Fatalf("%d bars, %q–%q; want %d, %q–%q", len(bars), first, last, c.n, c.first, c.last)
			}
			for _, i := range c.full {
				if bars[i].Height != 100 {
					t.Errorf("bar %d (%s) height %v, want 100", i, bars[i].Label, bars[i].Height)
				}
			}
			for i := 1; i < len(bars); i++ {
				if bars[i].X <= bars[i-1].X || bars[i].X+bars[i].Width > 1000.01 {
					t.Errorf("bar %d at %v+%v", i, bars[i].X, bars[i].Width)
				}
			}
		})
	}
}

func TestShownNames(t *testing.T) {
	got := ShownNames([]string{"دوما", "Dūmā", "dwma", "Douma i Syria", "Dúmá", "Duma", "ba er mi la", "Bab al-Hawa", "Deir ez-Zor",
		"al-Hol camp", "Al Judaydah", "Jisr ash-Shughur", "Ma'arat al-Nu'man", "Idlib District", "tel abyad", "Ar Raqqah", "Qa' al-Jabal"})
	want := []string{"دوما", "Dūmā", "Dúmá", "Duma", "Bab al-Hawa", "Deir ez-Zor", "al-Hol camp", "Al Judaydah", "Jisr ash-Shughur",
		"Ma'arat al-Nu'man", "Idlib District", "Ar Raqqah", "Qa' al-Jabal"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("ShownNames:\n got %q\nwant %q", got, want)
	}
}

// TestWrittenInThePagesLanguage (issue 54, 7): a camera's time and an
// editor's name are said in the page's language, not as the records
// write them.
func TestWrittenInThePagesLanguage(t *testing.T) {
	en, ar := i18n.Locale{Lang: "en"}, i18n.Locale{Lang: "ar"}
	for _, tc := range []struct {
		got, want string
	}{
		{CameraTime(en, "2017-01-22T09:00:00"), "22 January 2017, 09:00 (the camera’s clock)"},
		{CameraTime(ar, "2017-01-22T09:00:00"), "\u2068٢٢ كانون الثاني/يناير ٢٠١٧\u2069، \u2068٠٩:٠٠\u2069 (بساعة الكاميرا)"},
		{CameraTime(ar, "not a time"), "not a time"},
		{ByWhom(ar, "editor rana"), "المحرّر \u2068rana\u2069"},
		{ByWhom(en, "editor rana"), "editor rana"},
		{ByWhom(ar, "syriamap import"), "syriamap import"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// TestPlacementWord (issue 68, 8): the word beside a confidence is the
// badge's, over every kind of match; "exact" only for the place named
// and sure.
func TestPlacementWord(t *testing.T) {
	en, ar := i18n.Locale{Lang: "en"}, i18n.Locale{Lang: "ar"}
	for _, c := range []struct {
		name   string
		place  photo.Place
		en, ar string
	}{
		{"the whole name, sure", photo.Place{Located: true, Precision: "exact", Confidence: 0.92}, "exact", "دقيقة"},
		{"at the low line", photo.Place{Located: true, Precision: "exact", Confidence: 0.5}, "exact", "دقيقة"},
		{"a person's name", photo.Place{Located: true, Precision: "exact", Confidence: 0.3}, "low", "ضعيفة"},
		{"a word inside a camp's name, read before issue 65", photo.Place{Located: true, Precision: "exact", Confidence: 0.45}, "low", "ضعيفة"},
		{"a word inside a camp's name", photo.Place{Located: true, Precision: "fallback", Confidence: 0.45}, "fallback", "تقريبية"},
		{"the holder of an unknown place", photo.Place{Located: true, Precision: "fallback", Confidence: 0.8}, "fallback", "تقريبية"},
		{"an editor's place", photo.Place{Located: true, Precision: "corrected", Confidence: 1}, "corrected", "مصحَّحة"},
		{"the file's place", photo.Place{Located: true, Precision: "given", Confidence: 1}, "given", "من الملف"},
		{"no place", photo.Place{Precision: "none"}, "not on the map", "ليست على الخريطة"},
	} {
		if got := PlacementWord(en, c.place); got != c.en {
			t.Errorf("%s: %q, want %q", c.name, got, c.en)
		}
		if got := PlacementWord(ar, c.place); got != c.ar {
			t.Errorf("%s (ar): %q, want %q", c.name, got, c.ar)
		}
	}
}

// TestChangeDone (issue 68, 8): every change a photo's records name is
// said in words in both languages, never as the records' code
// ("second-look").
func TestChangeDone(t *testing.T) {
	for _, c := range []struct{ action, step, en string }{
		{"second-look", "requested", "asked for a second look at its place"},
		{"second-look", "answered", "answered a blind second look at its place"},
		{"adjudicate", "", "decided between two editors' answers on its place"},
		{"confirm", "", "confirmed its place"},
		{"correct", "", "placed it elsewhere"},
		{"move", "", "moved its point"},
		{"unplace", "", "took it off the map"},
		{"undo", "", "undid a change"},
		{"fix", "", "fixed its date or credit"},
		{"harm", "", "changed its mark (graphic or withheld)"},
		{"reuse", "", "found its frame in another photo"},
		{"event-link", "", "judged a link of it to an event"},
		{"import", "", "imported it"},
		{"reimport", "", "imported it again"},
		{"regeocode", "", "had the geocoder read its place again"},
		{"a-new-action", "", "changed it"},
	} {
		en, ar := ChangeDone(i18n.Locale{Lang: "en"}, c.action, c.step), ChangeDone(i18n.Locale{Lang: "ar"}, c.action, c.step)
		if en != c.en || ar == "" || ar == en || strings.Contains(ar, c.action) {
			t.Errorf("%s %s: %q, %q; want %q and its Arabic", c.action, c.step, en, ar, c.en)
		}
	}
}

// TestShownNamesDropRewrites (issue 68, 8): a spelling that only
// rewrites another of the place's — an Arabic word split by a space ("د
// مشق" for دمشق), a letter with a diacritic written out as two ("Dimaejk"
// for Dimäjk) — is not shown; over the whole gazetteer the rule drops
// only such rewrites, and the count is reported.
func TestShownNamesDropRewrites(t *testing.T) {
	g, err := gazetteer.Load(geodata.Gazetteer)
	if err != nil {
		t.Fatal(err)
	}
	damascus := g.ByID("gn:170654")
	shown := ShownNames(damascus.Names, damascus.Name, damascus.NameAr)
	for _, junk := range []string{"د مشق", "Dimaejk"} {
		if slices.Contains(shown, junk) {
			t.Errorf("Damascus shows %q", junk)
		}
	}
	for _, kept := range []string{"دمشق", "Dimäjk", "Damaskus", "Dimashq"} {
		if !slices.Contains(shown, kept) {
			t.Errorf("Damascus no longer shows %q", kept)
		}
	}
	dropped, places := 0, 0
	for _, p := range g.Places() {
		before, after := 0, len(ShownNames(p.Names, p.Name, p.NameAr))
		for _, n := range p.Names {
			if shownName(n) {
				before++
			}
		}
		if after < before {
			places++
			dropped += before - after
		}
	}
	t.Logf("over %d places, the rewrites rule drops %d shown names of %d places", g.Len(), dropped, places)
	if dropped < 3 || dropped > 100 { // 6 names of 4 places when written
		t.Errorf("the rule drops %d names", dropped)
	}
}

// TestRefusal (issue 68, 8): each of the search's refusals is said in
// Arabic with its values; another message, or an English page, is left
// as the server wrote it.
func TestRefusal(t *testing.T) {
	ar := i18n.Locale{Lang: i18n.Arabic}
	for _, c := range []struct{ message, want string }{
		{"q: the search is 600 bytes long; at most 512", "طول البحث ٦٠٠ بايت، والحدّ الأقصى ٥١٢"},
		{`q: a prefix search needs at least 2 letters before the * ("A*")`, "يحتاج البحث ببداية الكلمة إلى ٢ من الأحرف على الأقل قبل علامة * (A*)"},
		{"q: the search has 70 terms; at most 64", "في البحث ٧٠ كلمة، والحدّ الأقصى ٦٤"},
		{"q: the search has 9 prefix terms (word*); at most 4", "في البحث ٩ كلمات ببداياتها (كلمة*)، والحدّ الأقصى ٤"},
		{`q: “"Aleppo” is not a valid full-text search: use words, "phrases" in pairs of quotes, OR, NOT, prefix*`, `«"Aleppo» ليس بحثًا صالحًا`},
	} {
		got, ok := Refusal(ar, c.message)
		if got = strings.NewReplacer("\u2068", "", "\u2069", "").Replace(got); !ok || !strings.Contains(got, c.want) {
			t.Errorf("%q: %q (%v); want %q", c.message, got, ok, c.want)
		}
	}
	if got, ok := Refusal(ar, "internal error"); ok || got != "internal error" {
		t.Errorf("another message: %q, %v", got, ok)
	}
	if _, ok := Refusal(i18n.Locale{Lang: "en"}, "q: the search has 70 terms; at most 64"); ok {
		t.Error("an English page's refusal rewritten")
	}
}

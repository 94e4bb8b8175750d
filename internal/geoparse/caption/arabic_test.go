package caption

import (
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/photo"
)

// TestArabicCredit reads the credits of Arabic captions in each of their
// shapes, and leaves alone words that only look like one.
func TestArabicCredit(t *testing.T) {
	for _, c := range []struct{ text, photographer, agency string }{
		{"قوات سورية في دير الزور (أ ف ب)", "", "AFP"},
		{"يوميات حلبية. أطفال في حي باب النيرب. (أ.ف.ب)", "", "AFP"},
		{"أطفال في عرسال. (أ. ف. ب)", "", "AFP"},
		{"أ ف ب تحمل هذه الطفلة وعاء في مخيم المبروكة. ( أ ف ب )", "", "AFP"},
		{"سوريون أثناء دخولهم إلى مدينة حمص أمس.«الفرنسية»", "", "AFP"},
		{"جنود في شمال الرقة. تصوير: رودي سعيد - رويترز", "رودي سعيد", "Reuters"},
		{"طفل سوري حمله والده فى حقيبة »صورة من رويترز«", "", "Reuters"},
		{"عناصر من المعارضة في حي الوعر بحمص. (أ ب)", "", "AP"},
		{"مقاتلون في الرقة في 19 تشرين الاول/اكتوبر 2017\n\n(afp_tickers)", "", "AFP"},
		{"افتتاح مدرسة في دمشق (سانا)", "", "SANA"},
		{"سوق في إدلب. عدسة: أحمد محمد", "أحمد محمد", ""},
		{"منازل مدمّرة وسط حمص القديمة .", "", ""},
		{"الفرنسية لغة يتعلمها الأطفال في المدرسة بدمشق", "", ""}, // a word, not in brackets nor at the end
		// The wires as Arabic pages credit them (issue 66, item 4): the
		// photographer before a slash in the brackets, the agency's long
		// name after "مصور" (a photographer of), a channel in brackets.
		{"معاناة السوريين تستمر مع القصف (محمد خير/ الأناضول)", "محمد خير", "Anadolu Agency"},
		{"في مدينة حلب التقط مصور وكالة الأنباء الفرنسية صورة لطفل داخل خيمة", "", "AFP"},
		{"دماء تلطخ وجه طفل صغير نجا من الموت تحت الأنقاض(الجزيرة)", "", "Al Jazeera"},
		{"نازحون في منطقة الجزيرة شمال شرقي سوريا", "", ""}, // the region, not the channel
		{"نازحون يصلون إلى الجزيرة.", "", ""},
		{"يمنع دخول الأطفال إلى تركيا إلا بصحبة ذويهم (Getty)", "", "Getty Images"},
		{"أطفال في مخيم الزعتري. (المصدر: البوابة/ جـ. زاك هولو).", "جـ. زاك هولو", "البوابة"},
	} {
		got := Parse(c.text).Credit
		if got.Photographer != c.photographer || got.Agency != c.agency {
			t.Errorf("%s\n  credit %q/%q, want %q/%q", c.text, got.Photographer, got.Agency, c.photographer, c.agency)
		}
	}
}

// TestArabicDate reads the dates of Arabic captions: both calendars'
// month names, alone or side by side, abbreviated, both digit sets,
// numbers day first or year first, a year alone.
func TestArabicDate(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"غارة على حلب - 24 أبريل 2016.", "2016-04-24"},
		{"في شمال الرقة يوم 19 نوفمبر تشرين الثاني 2016.", "2016-11-19"},
		{"في الغوطة الشرقية في 15 ت2/نوفمبر 2017.", "2017-11-15"},
		{"في المعرض في 7 تشرين الاول/اكتوبر 2017", "2017-10-07"},
		{"الثلاثاء 3 أيار 2016 في دوما", "2016-05-03"},
		{"في دوما ٣ أيار ٢٠١٦", "2016-05-03"},
		{"في دوما 3/5/2016", "2016-05-03"},
		{"اللاجئون في مخيم كيلس 2012/08/17", "2012-08-17"},
		{"دمار في حمص في آذار 2013", "2013-03"},
		{"دمار في حمص في كانون الثاني 2014", "2014-01"},
		{"دمار في حمص عام 2013", "2013"},
		{"دمار في حمص في 31 شباط 2013", "2013-02"}, // no such day: the month stands
		{"أطفال في حلب", ""},
	} {
		if got := Parse(c.text).Date.String(); got != c.want {
			t.Errorf("%s\n  date %q, want %q", c.text, got, c.want)
		}
	}
}

// TestArabicDateAsEnabBaladiWrites reads the dates Enab Baladi and Syria
// TV write: the day, "من" (of), the month ("15 من آب 2018"), and a day
// and month without a year, which take the year of the reference date the
// import gives (its publication date, the file's date column) and, with
// none, give no date rather than a wrong year (issue 66, item 2).
func TestArabicDateAsEnabBaladiWrites(t *testing.T) {
	ref := func(s string) Date {
		d, err := photo.ParseDate(s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	for _, c := range []struct {
		name, text string
		ref        Date
		want       string
	}{
		{"day of month year", "مدينة جرجناز- 28 من تموز 2018 (فيس بوك)", Date{}, "2018-07-28"},
		{"day of a month of two words", "حريق بمخيم في لبنان - 3 من كانون الأول 2019", Date{}, "2019-12-03"},
		{"day of month, no year, no reference", "قصف على بلدة معرشورين - 21 من آب (الدفاع المدني)", Date{}, ""},
		{"day month, no year, no reference", "غارات على مدينة اللطامنة، الأربعاء 7 تشرين الأول", Date{}, ""},
		{"day of month, the reference's year", "قصف على بلدة معرشورين - 21 من آب (الدفاع المدني)", ref("2019-08-22"), "2019-08-21"},
		{"day month, the reference's year", "استهداف حي صلاح الدين بحلب - السبت 16 نيسان (عنب بلدي)", ref("2016-04-17"), "2016-04-16"},
		{"after the reference: the year before", "حريق بمخيم في لبنان - 30 من كانون الأول (فيس بوك)", ref("2020-01-02"), "2019-12-30"},
		{"a reference known to its year only", "قصف على دوما - 18 تشرين الثاني", ref("2016"), "2016-11-18"},
		{"the caption's year over the reference's", "قصف على دوما - 18 تشرين الثاني 2015", ref("2016-11-20"), "2015-11-18"},
		{"day of the month of, of the year", "قصف على دوما في 15 من شهر آب من عام 2018", Date{}, "2018-08-15"},
		{"day month year with the word year", "قصف على دوما في 15 آب عام 2018", Date{}, "2018-08-15"},
		{"the day with the article", "قصف على دوما في الـ15 من آب 2018", Date{}, "2018-08-15"},
		{"month of the year", "قصف على دوما في شهر آب من العام 2018", Date{}, "2018-08"},
	} {
		if got := ParseAt(c.text, c.ref).Date.String(); got != c.want {
			t.Errorf("%s: %s (reference %v)\n  date %q, want %q", c.name, c.text, c.ref, got, c.want)
		}
	}
}

// TestArabicMentions reads what the words around a name say of it: the
// cue, the designator, the role, particles written onto words, names in
// guillemets, and countries.
func TestArabicMentions(t *testing.T) {
	type m struct {
		text, cue, designator string
		role                  Role
		entity                Entity
	}
	for _, c := range []struct {
		text string
		want []m
	}{
		{"أطفال يلعبون بحلب", []m{{"بحلب", "in", "", Where, MaybePlace}}},
		{"في بلدة «دُومَا» قرب دمشق", []m{{"دُومَا", "in", "town", Where, MaybePlace}, {"دمشق", "near", "", Where, MaybePlace}}},
		{"نازحون من الرقة في مخيم", []m{{"الرقة", "from", "", Origin, MaybePlace}}},
		{"فروا من حلب إلى إدلب", []m{{"حلب", "from", "", Origin, MaybePlace}, {"إدلب", "to", "", Target, MaybePlace}}},
		{"في مدينة أريحا بريف إدلب", []m{{"أريحا", "in", "city", Where, MaybePlace}, {"إدلب", "in", "countryside", Where, MaybePlace}}},
		{"دمار في حي الوعر بحمص", []m{{"الوعر", "in", "neighbourhood", Where, MaybePlace}, {"بحمص", "in", "", Context, MaybePlace}}},
		{"في بلدة عرسال اللبنانية", []m{{"عرسال", "in", "town", Where, MaybePlace}, {"اللبنانية", "", "", Context, Country}}},
		// Every neighbour's adjective, feminine and masculine, says the
		// name's country, Syria's too.
		{"في بلدة تل أبيض السورية", []m{{"تل أبيض", "in", "town", Where, MaybePlace}, {"السورية", "", "", Context, Country}}},
		{"في مدينة كيليس التركية", []m{{"كيليس", "in", "city", Where, MaybePlace}, {"التركية", "", "", Context, Country}}},
		{"في مدينة الرمثا الأردنية", []m{{"الرمثا", "in", "city", Where, MaybePlace}, {"الأردنية", "", "", Context, Country}}},
		{"في مدينة القائم العراقية", []m{{"القائم", "in", "city", Where, MaybePlace}, {"العراقية", "", "", Context, Country}}},
		{"في مخيم الزعتري الأردني", []m{{"الزعتري", "in", "camp", Where, MaybePlace}, {"الأردني", "", "", Context, Country}}},
		{"في سهل البقاع اللبناني", []m{{"البقاع", "in", "district", Where, MaybePlace}, {"اللبناني", "", "", Context, Country}}},
		{"طفل سوري في حلب", []m{{"سوري", "", "", Context, Nationality}, {"حلب", "in", "", Where, MaybePlace}}},
		// "بإدلب": the particle on a name with a hamza ends the name
		// before it; a place's nouns joined by "و" ("in the streets and
		// gardens of the city of X") share the cue.
		{"في مدينة معرة النعمان بإدلب", []m{{"معرة النعمان", "in", "city", Where, MaybePlace}, {"بإدلب", "in", "", Context, MaybePlace}}},
		{"في شوارع وحدائق مدينة الباب", []m{{"شوارع", "in", "", Where, MaybePlace}, {"الباب", "in", "city", Where, MaybePlace}}},
		// The verbal nouns of leaving say where people came from, as the
		// verbs do.
		{"تمكنت من الخروج من الرقة", []m{{"الرقة", "from", "", Origin, MaybePlace}}},
		{"بعد الهروب من حمص", []m{{"حمص", "from", "", Origin, MaybePlace}}},
		// The country after "الحدود مع" or "الحدودي مع" names a border,
		// not where the photo is.
		{"مخيم الركبان الحدودي مع الأردن", []m{{"الركبان", "", "camp", Context, MaybePlace}, {"الأردن", "", "border", Context, Country}}},
		{"خيام على الحدود مع تركيا", []m{{"تركيا", "on", "border", Context, Country}}},
		// The nouns and adjectives captions use after a cue are no
		// names, villages spelled like them notwithstanding, unless a
		// designator or quotes name them.
		{"طفل يحدق في الصورة", nil},
		{"تلاميذ على متن عربة", nil},
		{"نازحون في ظروف الشتاء القاسية", nil},
		{"يحتمون من عاصفة رملية", nil},
		{"يشعرون بالبرد", nil},
		{"زادت العاصفة من صعوبة الحياة", []m{{"صعوبة", "", "", Context, MaybePlace}}},
		{"في العودة قريبا في أمان", nil},
		// A name written with "ب" right after the place of the photo
		// says what holds it; the people of a camp are no name.
		{"في مخيم «المبروكة» بقرية رأس العين", []m{{"المبروكة", "in", "camp", Where, MaybePlace}, {"رأس العين", "in", "village", Context, MaybePlace}}},
		{"وفي مخيم اللاجئين ببلدة أعزاز في حلب", []m{{"أعزاز", "in", "town", Where, MaybePlace}, {"حلب", "in", "", Where, MaybePlace}}},
		// "هنا", here, points at the place after it: a place said to be
		// "in" before it in its sentence is no longer the photo's.
		{"كانت الحياة صعبة في مدينة حلب، ووصلوا إلى هنا بحثا عن ملجأ في مخيم أطمة", []m{{"حلب", "in", "city", Context, MaybePlace}, {"أطمة", "in", "camp", Where, MaybePlace}}},
		{"هنا في مخيم أطمة، حيث وصلت عائلات إلى هنا فرارا من المعارك في حلب", []m{{"أطمة", "in", "camp", Where, MaybePlace}, {"حلب", "in", "", Where, MaybePlace}}},
		{"خرجوا من هنا من منطقة باب الحديد", []m{{"باب الحديد", "from", "district", Origin, MaybePlace}}},
		// "أهالي X", the people of X: a hint of the place, as "حلبيون".
		{"صبر أهالي معرة مصرين.", []m{{"معرة مصرين", "", "", Context, Residents}}},
		{"يعاني سكان دوما", []m{{"دوما", "", "", Context, Residents}}},
		{"عائلات في قرية الصورة", []m{{"الصورة", "in", "village", Where, MaybePlace}}},
	} {
		got := Parse(c.text).Mentions
		var have []m
		for _, x := range got {
			have = append(have, m{x.Text, x.Cue, x.Designator, x.Role, x.Entity})
		}
		if len(have) != len(c.want) {
			t.Errorf("%s\n  mentions %+v\n  want     %+v", c.text, have, c.want)
			continue
		}
		for i := range have {
			if have[i] != c.want[i] {
				t.Errorf("%s\n  mention %d %+v, want %+v", c.text, i, have[i], c.want[i])
			}
		}
	}
}

// TestOneAgencyTable: the Arabic and English readers know the same
// agencies by the same names — one table holds both spellings, so they
// cannot drift (Enab Baladi was once the Arabic reader's only).
func TestOneAgencyTable(t *testing.T) {
	names := map[string]bool{}
	for _, a := range agencies {
		names[a.name] = true
	}
	for _, a := range arAgencies {
		if !names[a.name] {
			t.Errorf("the Arabic reader knows %q, the English one does not", a.name)
		}
	}
	for _, tc := range []struct{ caption, agency string }{
		{"Children walk in Idlib, Syria, March 3, 2016. (Photo by Enab Baladi)", "Enab Baladi"},
		{"أطفال في إدلب، 3 آذار 2016 (عنب بلدي)", "Enab Baladi"},
	} {
		if got := Parse(tc.caption).Credit.Agency; got != tc.agency {
			t.Errorf("%s: agency %q, want %q", tc.caption, got, tc.agency)
		}
	}
}

// The ruling family's given names before الأسد are a person's, not
// places (بشار is a village of Idlib as well); a place named after one
// (حي الشهيد باسل الأسد) or one that holds the name (ضاحية الأسد) keeps
// its mention (issue 53, part 4).
func TestArabicRulersAreNoPlaces(t *testing.T) {
	has := func(text, word string) bool {
		for _, m := range Parse(text).Mentions {
			if strings.Contains(m.Text, word) {
				return true
			}
		}
		return false
	}
	for _, tc := range []struct {
		text, word string
		want       bool
	}{
		{"دمار بعد غارات نظام بشار الأسد على حي القاطرجي", "بشار", false},
		{"دمار بعد غارات نظام بشار اﻷسد على حي القاطرجي", "بشار", false}, // the lam-alef as one glyph
		{"دمار بعد غارات نظام بشار الأسد على حي القاطرجي", "القاطرجي", true},
		{"قصف على ضاحية الأسد في دمشق", "الأسد", true},
		{"غارة على حي الشهيد باسل الأسد في اللاذقية", "باسل", true},
	} {
		if got := has(tc.text, tc.word); got != tc.want {
			t.Errorf("%q: a mention of %q %v, want %v", tc.text, tc.word, got, tc.want)
		}
	}
}

// TestArabicCitiesAbroadOfTwoWords reads a city abroad written in two
// words as its country's, like one of one word.
func TestArabicCitiesAbroadOfTwoWords(t *testing.T) {
	c := Parse("لاجئون سوريون في ديار بكر")
	for _, m := range c.Mentions {
		if m.Text == "ديار بكر" {
			if m.Entity != Country {
				t.Errorf("ديار بكر: entity %q, want a country's", m.Entity)
			}
			return
		}
	}
	t.Errorf("no mention ديار بكر in %+v", c.Mentions)
}

package conflict

import (
	"slices"
	"strings"
	"testing"

	"github.com/paulmach/orb"
)

// ev is a GED row of one day at Douma's point, where_prec 1.
func ev(id string, day int, kind, sideA, sideB, headline string) Event {
	return Event{Dataset: GED, ID: id, DateStart: day, DateEnd: day, DatePrec: 1, Lon: 36.40, Lat: 33.57, WherePrec: 1, Kind: kind,
		SideA: sideA, SideB: sideB, Adm1: "Rif Dimashq Governorate", Deaths: 3, Headline: headline}
}

// at is a photo of caption at Douma on day, a town.
func at(day int, caption string, sentences ...string) Sighting {
	return Sighting{Point: orb.Point{36.40, 33.57}, Located: true, PlaceKind: "town", Governorate: "Rural Damascus", From: day, To: day,
		Caption: caption, Sentences: sentences}
}

// ids are the candidates' event ids, best first.
func ids(cs []Candidate) string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Event.ID)
	}
	return strings.Join(out, ",")
}

// TestIllustrativeNeverLikely (issue 69, 4): a photo its caption marks
// an illustration or an archive photo, in English or Arabic, is never
// likely, even of its day's event at its place; one that is not so
// marked is.
func TestIllustrativeNeverLikely(t *testing.T) {
	e := ev("1", 20180320, "state-based", "Government of Syria", "Syrian insurgents", "Warplanes strike Douma")
	for _, c := range []struct {
		caption string
		likely  bool
	}{
		{"صورة تعبيرية لغارة على مدينة دوما", false},
		{"غارة جوية على دوما (تعبيرية)", false},
		{"دمار جراء القصف على دوما - صورة أرشيفية", false},
		{"آثار القصف على دوما (أرشيف)", false},
		{"Smoke rises after an air strike in Douma. File photo", false},
		{"An archive picture of shelling in Douma", false},
		{"Illustration: a barrel bomb falls on Douma", false},
		{"FILE PHOTO: Smoke rises after an air strike in Douma", false},
		{"Smoke rises after an air strike in Douma", true},
		{"دخان يتصاعد إثر غارة جوية على دوما", true},
	} {
		got, ok := Match(at(20180320, c.caption), e)
		if !ok || got.Likely != c.likely {
			t.Errorf("%q: matched %v, likely %v, want %v (%s)", c.caption, ok, got.Likely, c.likely, got.Why)
		}
	}
}

// TestStockSentenceNeverLikely (issue 69, 4): the agencies' background
// sentence on the war is not the photo's: a caption whose only words of
// violence are in it tells of none; the sentence that describes the
// photo is always read, and a later sentence of the photo's own incident
// too.
func TestStockSentenceNeverLikely(t *testing.T) {
	e := ev("1", 20180320, "state-based", "Government of Syria", "Syrian insurgents", "Warplanes strike Douma")
	for _, c := range []struct {
		name      string
		sentences []string
		likely    bool
	}{
		{"a queue for water, the war's toll", []string{"People queue for water in Douma, Syria March 20, 2018.",
			"The war that began in 2011 has killed hundreds of thousands of people."}, false},
		{"a market, the conflict's toll in digits", []string{"A man sells vegetables at a market in Douma.",
			"Syria's conflict has killed more than 350,000 people and displaced millions.", "REUTERS/Bassam Khabieh"}, false},
		{"Arabic: a queue, the war since 2011", []string{"طابور على الخبز في دوما.", "وأودت الحرب منذ عام 2011 بحياة مئات الآلاف."}, false},
		{"Arabic: the toll in thousands", []string{"أطفال يلعبون في دوما.", "وقتل في النزاع أكثر من 350 ألف شخص."}, false},
		{"an air strike, and the toll", []string{"Smoke rises after an air strike in Douma.",
			"The war that began in 2011 has killed hundreds of thousands of people."}, true},
		{"a later sentence of the photo's incident", []string{"Children stand in a street of Douma.",
			"The town was hit by air strikes on Tuesday, activists said."}, true},
		{"the describing sentence is read even when it sounds like the stock one", []string{
			"Relatives mourn people killed in the war that began in 2011, in Douma."}, true},
		{"Arabic: a strike, and the toll", []string{"دمار جراء غارة على دوما.", "وأودت الحرب منذ 2011 بحياة مئات الآلاف."}, true},
	} {
		s := at(20180320, strings.Join(c.sentences, " "), c.sentences...)
		got, ok := Match(s, e)
		if !ok || got.Likely != c.likely {
			t.Errorf("%s: matched %v, likely %v, want %v (abstains: %q)", c.name, ok, got.Likely, c.likely, Abstains(s))
		}
	}
}

// TestFarNeverLikely (issue 69, 4): an event more than a day before the
// photo is likely only when the caption tells of the aftermath; one
// farther from the photo's place than both precisions allow never is.
func TestFarNeverLikely(t *testing.T) {
	e := ev("1", 20180320, "state-based", "Government of Syria", "Syrian insurgents", "Warplanes strike Douma")
	for _, c := range []struct {
		name    string
		day     int
		kmEast  float64
		prec    int
		caption string
		likely  bool
	}{
		{"the same day", 20180320, 0, 1, "Smoke rises after an air strike in Douma", true},
		{"the day after", 20180321, 0, 1, "Rubble after an air strike in Douma", true},
		{"two days after, no aftermath", 20180322, 0, 1, "Rubble after an air strike in Douma", false},
		{"two days after, its aftermath", 20180322, 0, 1, "The aftermath of an air strike in Douma", true},
		{"two days after, a funeral", 20180322, 0, 1, "Mourners at the funeral of victims of an air strike in Douma", true},
		{"Arabic: two days after, no aftermath", 20180322, 0, 1, "دمار جراء غارة على دوما", false},
		{"Arabic: two days after, its traces", 20180322, 0, 1, "آثار القصف على دوما", true},
		{"Arabic: two days after, the rubble lifted", 20180322, 0, 1, "الدفاع المدني يرفع الأنقاض بعد غارة على دوما", true},
		{"an exact place 2 km beyond a town's reach", 20180320, 7, 1, "Smoke rises after an air strike", true},
		{"an exact place 7 km beyond a town's reach", 20180320, 12, 2, "Smoke rises after an air strike", false},
		{"near a place named, at it", 20180320, 2, 2, "Smoke rises after an air strike", true},
		{"near a place named, 15 km from it", 20180320, 15, 2, "Smoke rises after an air strike", false},
	} {
		e := e
		e.WherePrec = c.prec
		s := at(c.day, c.caption)
		s.Point = near(e, c.kmEast)
		got, ok := Match(s, e)
		if !ok || got.Likely != c.likely {
			t.Errorf("%s: matched %v, score %.2f, likely %v, want %v (%s)", c.name, ok, got.Score, got.Likely, c.likely, got.Why)
		}
	}
}

// TestRankReadsTheIncident (issue 69, 3): rows of one day and place a
// few hundredths apart are ordered by how their type of violence and
// sides fit the caption's words, in English and Arabic; words that name
// neither leave the order to the scores.
func TestRankReadsTheIncident(t *testing.T) {
	day := 20180320
	gov := ev("gov", day, "state-based", "Government of Syria", "IS", "Deaths reported: gov")
	gov.Deaths = 9 // first when nothing else tells them apart
	isSDF := ev("is", day, "non-state", "IS", "SDF", "Deaths reported: is")
	isSDF.Deaths = 5
	oneSided := ev("civ", day, "one-sided", "IS", "Civilians", "Deaths reported: civ")
	oneSided.Deaths = 4
	rebels := ev("reb", day, "one-sided", "Syrian insurgents", "Civilians", "Deaths reported: reb")
	rebels.Deaths = 2
	events := []Event{isSDF, oneSided, rebels, gov} // no headline in common: four incidents
	for _, c := range []struct {
		caption string
		first   string // or any of several, "civ|is"
	}{
		{"Smoke rises after an air strike in Douma", "gov"},
		{"Civil defence members at the site of a barrel bomb attack in Douma", "gov"},
		{"دخان يتصاعد إثر غارات الطيران الحربي على دوما", "gov"},
		{"The site of a car bomb explosion in Douma", "civ|is"},
		{"A suicide attack hit a checkpoint in Douma", "civ|is"},
		{"موقع انفجار سيارة مفخخة في دوما", "civ|is"},
		{"A car bomb of the Islamic State killed civilians in Douma", "civ"},
		{"Damage after shelling by rebels on Douma", "reb"},
		{"آثار قصف فصائل المعارضة على دوما", "reb"},
		{"Fighters of the Islamic State clash with SDF in Douma", "is"},
		{"Damage in Douma after clashes", "gov"},
	} {
		got := Rank(at(day, c.caption), events)
		if len(got) == 0 || !slices.Contains(strings.Split(c.first, "|"), got[0].Event.ID) {
			t.Errorf("%q: ranked %s, want %s first", c.caption, ids(got), c.first)
			continue
		}
		if got[0].Score-got[len(got)-1].Score > 0.1 {
			t.Errorf("%q: the fit moved a row %.2f, more than a few hundredths", c.caption, got[0].Score-got[len(got)-1].Score)
		}
	}
	// A row of another day is not lifted above the photo's day's by
	// its fit.
	before := ev("before", 20180319, "state-based", "Government of Syria", "Syrian insurgents", "Air strikes")
	if got := Rank(at(day, "Smoke after an air strike in Douma"), []Event{before, isSDF}); ids(got) != "is,before" {
		t.Errorf("the day before's air strike over the day's clash: %s", ids(got))
	}
}

// TestDayBefore (issue 69, 3): a caption that speaks of the day before
// the photo's ("strikes on Saturday" under a Sunday photo, "the day
// before", "a day after") looks at that day; one that names the photo's
// own day (its other days are the story's), or none, or a day before
// something else, at the photo's.
func TestDayBefore(t *testing.T) {
	sunday := 20180318 // a Sunday
	sat := ev("sat", 20180317, "state-based", "Government of Syria", "Syrian insurgents", "Strikes on Douma")
	sun := ev("sun", sunday, "state-based", "Government of Syria", "Syrian insurgents", "Shelling of Douma")
	fri := ev("fri", 20180316, "state-based", "Government of Syria", "Syrian insurgents", "Raids on Douma")
	for _, c := range []struct {
		caption string
		first   string
	}{
		{"Damage in Douma after strikes on Saturday", "sat"},
		{"Men inspect the damage of an air strike the day before in Douma", "sat"},
		{"Rescuers search the rubble a day after an air strike in Douma", "sat"},
		{"دمار في دوما جراء غارات يوم السبت", "sat"},
		{"الدفاع المدني يبحث تحت الأنقاض في اليوم التالي لغارة على دوما", "sat"},
		{"Damage in Douma after strikes on Friday", "fri"},
		{"Damage in Douma after strikes on Sunday", "sun"},
		{"Men on Sunday inspect a shop in Douma hit by strikes on Friday and Saturday", "sun"},
		{"Smoke over Douma. Strikes came a day before the talks", "sun"},
		{"Rubble in Douma. The next day, the family left", "sun"},
		{"Damage in Douma after strikes", "sun"},
		{"دمار في دوما جراء غارات الأحد", "sun"},
	} {
		got := Rank(at(sunday, c.caption), []Event{fri, sat, sun})
		if len(got) == 0 || got[0].Event.ID != c.first {
			t.Errorf("%q: ranked %s, want %s first", c.caption, ids(got), c.first)
		}
	}
}

// TestGroupIncidents (issue 69, 3): GED's rows of one incident — the same
// day, the same point, a source headline in common — are one candidate
// whose Group names them all; rows of other headlines, days or points
// stay apart.
func TestGroupIncidents(t *testing.T) {
	day := 20160424
	h := "More than 30 barrels and raid target Aleppo and heavy shelling on its neighborhoods"
	a := ev("219180", day, "state-based", "Government of Syria", "Syrian insurgents", h)
	b := ev("219182", day, "state-based", "Government of Syria", "Syrian insurgents", h)
	b.Deaths = 1
	c := ev("219179", day, "state-based", "Government of Syria", "Syrian insurgents", h+";60 casualties in 3 days of escalated shelling")
	c.Deaths = 2
	other := ev("219190", day, "state-based", "Government of Syria", "Syrian insurgents", "8 killed by aerial bombardment on al-Sakhour neighborhood")
	other.Deaths = 8
	nextDay := ev("nd", 20160423, "state-based", "Government of Syria", "Syrian insurgents", h)
	elsewhere := ev("el", day, "state-based", "Government of Syria", "Syrian insurgents", h)
	elsewhere.Lon += 0.01
	got := Rank(at(day, "Smoke after barrel bombs on Aleppo"), []Event{a, b, c, other, nextDay, elsewhere})
	var groups []string
	for _, c := range got {
		groups = append(groups, c.Event.ID+"["+strings.Join(c.Group, " ")+"]")
	}
	want := []string{"219180[219180 219179 219182]", "el[]", "219190[]", "nd[]"}
	if !slices.Equal(groups, want) {
		t.Errorf("candidates %v, want %v", groups, want)
	}
	for _, c := range got {
		if len(c.Group) > 0 && !strings.Contains(c.Why, "one incident in 3 rows") {
			t.Errorf("a group's why does not say so: %q", c.Why)
		}
	}
}

// TestListed (issue 69, 5): a row known only to the country or to its
// year is never a photo's candidate, though the rule still meets it (an
// event's page may name the photos near it); a governorate's, a month's
// and ACLED's are listed.
func TestListed(t *testing.T) {
	day := 20180320
	country := ev("country", day, "state-based", "Government of Syria", "Syrian insurgents", "")
	country.WherePrec = 6
	year := ev("year", 20180101, "state-based", "Government of Syria", "Syrian insurgents", "")
	year.DateEnd, year.DatePrec = 20181231, 5
	gov := ev("gov", day, "state-based", "Government of Syria", "Syrian insurgents", "")
	gov.WherePrec = 4
	month := ev("month", 20180301, "state-based", "Government of Syria", "Syrian insurgents", "")
	month.DateEnd, month.DatePrec = 20180331, 4
	acled := Event{Dataset: ACLED, ID: "SYR1", DateStart: day, DateEnd: day, DatePrec: 1, Lon: 36.40, Lat: 33.57, WherePrec: 1, Kind: "Battles"}
	s := at(day, "Smoke after an air strike in Douma")
	events := []Event{country, year, gov, month, acled}
	got := ids(Rank(s, events))
	for _, id := range []string{"gov", "month", "SYR1"} {
		if !strings.Contains(got, id) {
			t.Errorf("%s is not listed: %s", id, got)
		}
	}
	for _, e := range []Event{country, year} {
		if strings.Contains(got, e.ID) {
			t.Errorf("%s is listed: %s", e.ID, got)
		}
		if _, ok := Match(s, e); !ok {
			t.Errorf("%s: the rule no longer meets it", e.ID)
		}
	}
	if got := ids(NewIndex(events).Candidates(s)); strings.Contains(got, "country") || strings.Contains(got, "year") {
		t.Errorf("the index lists %s", got)
	}
}

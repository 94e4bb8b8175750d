package conflict

import (
	"strings"
	"testing"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geo"
)

// byID reads the real GED rows of testdata by id.
func byID(t *testing.T) map[string]Event {
	t.Helper()
	out := map[string]Event{}
	for _, e := range readFile(t, "ged-syria-sample.csv") {
		out[e.ID] = e
	}
	return out
}

// near is a point d km east of e's.
func near(e Event, km float64) orb.Point {
	return geo.PointAtBearingAndDistance(orb.Point{e.Lon, e.Lat}, 90, km*1000)
}

// TestMatchEveryPrecision runs the rule over real GED rows of every
// where_prec and date_prec code and synthetic ACLED rows of each
// precision: which photos meet which events, how they score, and which
// the rule would suggest. Each case fails when its branch is broken.
func TestMatchEveryPrecision(t *testing.T) {
	ged := byID(t)
	acled := map[string]Event{}
	for _, e := range readFile(t, "acled-synthetic.csv") {
		acled[e.ID] = e
	}
	for _, c := range []struct {
		name     string
		e        Event
		s        Sighting
		match    bool
		likely   bool
		min, max float64 // the score's bounds, when matched
		whyHas   string
	}{
		// where_prec 1, date_prec 1: Teir Maaleh village, 1 January 2016.
		{"the same village, the same day", ged["214797"], sight(ged["214797"], 0, "village", "Homs", 20160101, 20160101, "Smoke over Teir Maaleh village after shelling"),
			true, true, 0.9, 1, "same village, same day"},
		{"the day after (the aftermath)", ged["214797"], sight(ged["214797"], 0, "village", "Homs", 20160102, 20160102, "Damage in Teir Maaleh"),
			true, true, 0.6, 0.85, "the day before the photo"},
		{"three days after", ged["214797"], sight(ged["214797"], 0, "village", "Homs", 20160104, 20160104, ""), false, false, 0, 0, ""},
		{"20 km from an exact place", ged["214797"], sight(ged["214797"], 20, "village", "Homs", 20160101, 20160101, ""), false, false, 0, 0, ""},
		{"a city's extent holds a point 8 km from its centre", ged["214797"], sight(ged["214797"], 8, "city", "Homs", 20160101, 20160101, ""),
			true, true, 0.5, 0.95, "same city"},
		// where_prec 2: within about 25 km of Ein Laroz.
		{"15 km from a place known within 25 km: met, never likely (another place)", ged["214804"], sight(ged["214804"], 15, "town", "Idlib", 20160101, 20160101, ""),
			true, false, 0.4, 0.6, "within 25 km"},
		{"at the place known within 25 km", ged["214804"], sight(ged["214804"], 1, "town", "Idlib", 20160101, 20160101, ""),
			true, true, 0.5, 0.8, "within 25 km"},
		{"40 km from it", ged["214804"], sight(ged["214804"], 40, "town", "Idlib", 20160101, 20160101, ""), false, false, 0, 0, ""},
		// where_prec 3: a district of Hama, by its governorate.
		{"a district, the same governorate", ged["214831"], sight(ged["214831"], 30, "town", "Hama", 20160101, 20160101, ""),
			true, false, 0.3, 0.45, "same district"},
		{"a district, another governorate", ged["214831"], sight(ged["214831"], 30, "town", "Idlib", 20160101, 20160101, ""), false, false, 0, 0, ""},
		// where_prec 4 and 5: by the governorate, never a radius.
		{"a governorate's event, a town of it far off", ged["216112"], sight(ged["216112"], 90, "town", "Hama", 20160103, 20160103, ""),
			true, false, 0.15, 0.3, "same governorate"},
		{"a governorate's event, a town next door in another", ged["216112"], sight(ged["216112"], 5, "town", "Homs", 20160103, 20160103, ""), false, false, 0, 0, ""},
		{"a larger area of a governorate", ged["216056"], sight(ged["216056"], 40, "town", "Hama", 20160102, 20160102, ""),
			true, false, 0.15, 0.3, "same governorate"},
		// where_prec 6, date_prec 5: the country, the whole of 2016.
		{"the country, over a year", ged["233200"], sight(ged["214808"], 0, "city", "Aleppo", 20160601, 20160601, ""),
			true, false, 0, 0.05, "known only to the country"},
		// date_prec 5 at a district: spread over months, never likely.
		{"a district over three months", ged["219264"], sight(ged["219264"], 5, "city", "Al-Hasakah", 20160210, 20160210, ""),
			true, false, 0.01, 0.1, "over 92 days"},
		// date_prec 2 and 3 at points: a few days, a week.
		{"within 25 km over three days", ged["218702"], sight(ged["218702"], 3, "town", "Aleppo", 20160107, 20160107, ""),
			true, false, 0.25, 0.4, "over 3 days"},
		{"a city over a week", ged["219468"], sight(ged["219468"], 2, "city", "Deir ez-Zor", 20160114, 20160114, "Deir ez-Zor"),
			true, false, 0.2, 0.4, "over 7 days"},
		// date_prec 4: half a month at a point.
		{"half a month", ged["223796"], sight(ged["223796"], 10, "village", "Latakia", 20160120, 20160120, ""),
			true, false, 0.1, 0.25, "over 15 days"},
		// Abstentions: matched, never likely.
		{"a file photo", ged["214797"], sight(ged["214797"], 0, "village", "Homs", 20160101, 20160101, "FILE PHOTO: Smoke over Teir Maaleh"),
			true, false, 0.9, 1, "same village"},
		{"a photo of no violence", ged["214797"], sight(ged["214797"], 0, "village", "Homs", 20160101, 20160101, "Children play football in a street of Teir Maaleh"),
			true, false, 0.9, 1, "same village"},
		{"a photo dated to its month", ged["214797"], sight(ged["214797"], 0, "village", "Homs", 20160101, 20160131, ""),
			true, false, 0.3, 0.45, "in the photo's month"},
		// ACLED: a day at a place; a month (its whole month) at a district.
		{"ACLED, the same town and day", acled["SYR900001"], sight(acled["SYR900001"], 1, "town", "Idlib", 20180115, 20180115, ""),
			true, true, 0.7, 1, "same town, same day"},
		{"ACLED, a month at a district, a day of it", acled["SYR900002"], sight(acled["SYR900002"], 10, "town", "Hama", 20180227, 20180227, ""),
			true, false, 0.05, 0.15, "over 28 days"},
		{"ACLED, a month, the next month", acled["SYR900002"], sight(acled["SYR900002"], 10, "town", "Hama", 20180305, 20180305, ""), false, false, 0, 0, ""},
	} {
		got, ok := Match(c.s, c.e)
		if ok != c.match {
			t.Errorf("%s: matched %v, want %v (%+v)", c.name, ok, c.match, got)
			continue
		}
		if !ok {
			continue
		}
		if got.Likely != c.likely || got.Score < c.min || got.Score > c.max || !strings.Contains(got.Why, c.whyHas) {
			t.Errorf("%s: score %.2f (want %.2f–%.2f), likely %v (want %v), why %q (want %q)", c.name, got.Score, c.min, c.max, got.Likely, c.likely, got.Why, c.whyHas)
		}
	}
}

// sight is a photo near event e; a caption "" is one of damage, which
// shares no word with the sample's headlines.
func sight(e Event, kmEast float64, kind, gov string, from, to int, caption string) Sighting {
	if caption == "" {
		caption = "A man walks past a damaged building"
	}
	return Sighting{Point: near(e, kmEast), Located: true, PlaceKind: kind, Governorate: gov, From: from, To: to, Caption: caption}
}

// TestRankOneDayOneCity: rows of one day at one city's point are told
// apart by the caption's words (a market, a hospital), and a row spread
// over weeks there never outranks one of the photo's own day.
func TestRankOneDayOneCity(t *testing.T) {
	aleppo := byID(t)["214808"] // Aleppo, 1 January 2016
	market, hospital, weeks := aleppo, aleppo, aleppo
	market.ID, market.Headline, market.Deaths = "m", "Air strike hits a vegetable market in Aleppo", 12
	hospital.ID, hospital.Headline, hospital.Deaths = "h", "Barrel bombs hit a hospital in Aleppo", 30
	weeks.ID, weeks.DateStart, weeks.DateEnd, weeks.Deaths, weeks.Headline = "w", 20151220, 20160110, 400, "Clashes in Aleppo over three weeks"
	s := Sighting{Point: orb.Point{aleppo.Lon, aleppo.Lat}, Located: true, PlaceKind: "city", Governorate: "Aleppo", From: 20160101, To: 20160101,
		Caption: "People inspect the damage at a vegetable market after an air strike in Aleppo, Syria January 1, 2016."}
	got := Rank(s, []Event{weeks, hospital, market})
	var ids []string
	for _, c := range got {
		ids = append(ids, c.Event.ID)
	}
	if strings.Join(ids, ",") != "m,h,w" {
		t.Errorf("ranked %v, want the market's, then the hospital's, then the three weeks' (%+v)", ids, got)
	}
	if Abstains(s) != "" || !got[0].Likely || got[2].Likely {
		t.Errorf("likely: %v %v %v", got[0].Likely, got[1].Likely, got[2].Likely)
	}
}

// TestAbstains: no suggestion for a photo placed to a region, undated,
// dated to a year, or an archive photo.
func TestAbstains(t *testing.T) {
	base := Sighting{Located: true, PlaceKind: "town", From: 20160101, To: 20160101, Caption: "Rubble after an air strike"}
	for _, c := range []struct {
		name string
		edit func(*Sighting)
	}{
		{"a governorate", func(s *Sighting) { s.PlaceKind = "governorate" }},
		{"no place", func(s *Sighting) { s.Located = false }},
		{"no date", func(s *Sighting) { s.From, s.To = 0, 0 }},
		{"a year", func(s *Sighting) { s.To = 20161231 }},
		{"FILE PHOTO", func(s *Sighting) { s.Caption = "FILE PHOTO: A man walks in Aleppo" }},
		{"أرشيف", func(s *Sighting) { s.Caption = "صورة أرشيفية لحلب" }},
		{"no violence", func(s *Sighting) { s.Caption = "A street vendor sells fruit in Manbij" }},
	} {
		s := base
		c.edit(&s)
		if Abstains(s) == "" {
			t.Errorf("%s: the linker does not abstain", c.name)
		}
	}
	if why := Abstains(base); why != "" {
		t.Errorf("a town on a day: abstains (%s)", why)
	}
}

// TestTellsOfViolence: the words of violence and its aftermath, in
// English and Arabic, whole or begun, and captions of what else a war
// shows.
func TestTellsOfViolence(t *testing.T) {
	for _, c := range []struct {
		caption string
		want    bool
	}{
		{"Smoke rises after an airstrike on Douma", true},
		{"Men inspect a wrecked vehicle after explosions hit a bus station", true},
		{"A man carries an injured boy on rubble", true},
		{"Civil defence members search for survivors", true},
		{"Mourners at the funeral of fighters", true},
		{"The bodies of the dead lie in a street", true},
		{"دمار جراء غارة على ادلب", true},
		{"دخان يتصاعد اثر غارة جوية على بلدة حرستا", true},
		{"جرحى في قصف على دوما", true},
		{"Children play at a compound housing refugees", false},
		{"Fighters from the SDF stand near their vehicles", false},
		{"A convoy of buses waits to evacuate civilians", false},
		{"Christmas decorations in Aziziyeh Square", false},
		{"وقف إطلاق النار في حلب", false},
		{"جنود من قوات سوريا الديمقراطية في شمال الرقة", false},
	} {
		if got := TellsOfViolence(c.caption); got != c.want {
			t.Errorf("TellsOfViolence(%q) = %v, want %v", c.caption, got, c.want)
		}
	}
}

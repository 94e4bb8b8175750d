package secondlook

import (
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/syriamap/syriamap/internal/agreement"
	"github.com/syriamap/syriamap/internal/photo"
)

// code is err's application error code, "" for nil.
func code(err error) string {
	if err == nil {
		return ""
	}
	return photo.ErrorCode(err)
}

func round(state, first, second string) Round {
	return Round{ID: 1, PhotoID: "p1", State: state, First: Answer{By: first}, Second: Answer{By: second}}
}

// TestMayAnswer: nobody gives the second look at their own placement
// (names compare without case), and only a waiting round is answered.
func TestMayAnswer(t *testing.T) {
	for _, c := range []struct {
		name  string
		round Round
		by    string
		want  string
	}{
		{"another editor, waiting", round(Waiting, "rana", ""), "omar", ""},
		{"the first editor", round(Waiting, "rana", ""), "rana", photo.EForbidden},
		{"the first editor, in capitals", round(Waiting, "rana", ""), "RANA", photo.EForbidden},
		{"the first editor, spaced", round(Waiting, "rana", ""), " rana ", photo.EForbidden},
		{"answered already", round(Agreed, "rana", "omar"), "lina", photo.EConflict},
		{"waiting for a third", round(Disagreed, "rana", "omar"), "lina", photo.EConflict},
		{"superseded", round(Superseded, "rana", ""), "omar", photo.EConflict},
		{"the first editor, superseded", round(Superseded, "rana", ""), "rana", photo.EForbidden},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := code(c.round.MayAnswer(c.by)); got != c.want {
				t.Errorf("MayAnswer(%q) on %s: %q, want %q", c.by, c.round.State, got, c.want)
			}
			if c.round.ToAnswer(c.by) != (c.want == "") {
				t.Errorf("ToAnswer(%q) = %v", c.by, c.round.ToAnswer(c.by))
			}
		})
	}
}

// TestMayDecide: a third editor decides, neither of the two who
// answered; only a round that disagreed; with a choice and a place.
func TestMayDecide(t *testing.T) {
	disagreed := round(Disagreed, "rana", "omar")
	for _, c := range []struct {
		name   string
		round  Round
		by     string
		choice string
		placed bool
		want   string
	}{
		{"a third editor", disagreed, "lina", ThirdFirst, true, ""},
		{"a third editor's own place", disagreed, "lina", ThirdOther, true, ""},
		{"the second's answer", disagreed, "lina", ThirdSecond, true, ""},
		{"the first editor", disagreed, "rana", ThirdFirst, true, photo.EForbidden},
		{"the second editor", disagreed, "Omar", ThirdSecond, true, photo.EForbidden},
		{"still waiting for a second", round(Waiting, "rana", ""), "lina", ThirdFirst, true, photo.EConflict},
		{"agreed", round(Agreed, "rana", "omar"), "lina", ThirdFirst, true, photo.EConflict},
		{"adjudicated", round(Adjudicated, "rana", "omar"), "lina", ThirdFirst, true, photo.EConflict},
		{"no choice", disagreed, "lina", "", true, photo.EInvalid},
		{"another choice", disagreed, "lina", "both", true, photo.EInvalid},
		{"no place", disagreed, "lina", ThirdOther, false, photo.EInvalid},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.round.MayDecide(Answer{By: c.by, Choice: c.choice}, c.placed)
			if got := code(err); got != c.want {
				t.Errorf("MayDecide(%q, %q) on %s: %v, want %q", c.by, c.choice, c.round.State, err, c.want)
			}
			if queued := c.round.ToDecide(c.by); queued != (c.want == "" || c.want == photo.EInvalid) {
				t.Errorf("ToDecide(%q) on %s = %v", c.by, c.round.State, queued)
			}
		})
	}
}

// TestOutcome: only two answers that agree verify a photo; otherwise the
// round waits for a third editor.
func TestOutcome(t *testing.T) {
	for _, c := range []struct {
		j        agreement.Judgement
		state    string
		verified bool
	}{
		{agreement.Judgement{SamePlace: true, Agreed: true, DistanceKm: 0}, Agreed, true},
		// Nested answers never verify, whatever else a judgement says.
		{agreement.Judgement{Nested: true, Agreed: true, DistanceKm: math.NaN()}, Disagreed, false},
		{agreement.Judgement{WithinSize: true, Agreed: true, DistanceKm: 1}, Agreed, true},
		{agreement.Judgement{SameGovernorate: true, DistanceKm: 30}, Disagreed, false},
		{agreement.Judgement{SamePlace: true, Agreed: false}, Disagreed, false},
		{agreement.Judgement{DistanceKm: math.NaN()}, Disagreed, false},
	} {
		if state, verified := Outcome(c.j); state != c.state || verified != c.verified {
			t.Errorf("Outcome(%+v) = %s, %v; want %s, %v", c.j, state, verified, c.state, c.verified)
		}
	}
}

// TestOutcomeOfAnswers: a placement is verified only when both editors
// named it — the same place, or two bare points near each other. Answers
// that nest (a quarter and its city, a village and its district, a point
// in a place's reach) name only the coarser place together: the finer
// one is the first editor's alone, and a third editor decides.
func TestOutcomeOfAnswers(t *testing.T) {
	aleppo := agreement.Answer{Decision: agreement.Confirm, PlaceID: "aleppo", Kind: "city", Lon: 37.16, Lat: 36.20, District: "SY0200", Governorate: "SY02",
		Ancestors: []string{"ocha:SY0200", "ocha:SY02"}}
	babAlHadid := agreement.Answer{Decision: agreement.Confirm, PlaceID: "bab-al-hadid", Kind: "neighbourhood", Lon: 37.13, Lat: 36.18,
		District: "SY0200", Governorate: "SY02", Ancestors: []string{"aleppo", "ocha:SY0200", "ocha:SY02"}}
	jdeideh := agreement.Answer{Decision: agreement.Correct, PlaceID: "jdeideh", Kind: "neighbourhood", Lon: 37.135, Lat: 36.185,
		District: "SY0200", Governorate: "SY02", Ancestors: []string{"aleppo", "ocha:SY0200", "ocha:SY02"}}
	village := agreement.Answer{Decision: agreement.Correct, PlaceID: "village", Kind: "village", Lon: 37.5, Lat: 36.4, District: "SY0200", Governorate: "SY02",
		Ancestors: []string{"ocha:SY0200", "ocha:SY02"}}
	district := agreement.Answer{Decision: agreement.Correct, PlaceID: "ocha:SY0200", Kind: "district", Lon: 37.3, Lat: 36.3, District: "SY0200", Governorate: "SY02",
		Ancestors: []string{"ocha:SY02"}}
	pin := agreement.Answer{Decision: agreement.Correct, Lon: 37.161, Lat: 36.201}
	pinNear := agreement.Answer{Decision: agreement.Correct, Lon: 37.17, Lat: 36.21}
	for _, c := range []struct {
		name     string
		a, b     agreement.Answer
		state    string
		verified bool
	}{
		{"the same place", babAlHadid, babAlHadid, Agreed, true},
		{"rana's quarter, omar's city", babAlHadid, aleppo, Disagreed, false},
		{"the city first, the quarter second", aleppo, babAlHadid, Disagreed, false},
		{"a village, then its district", village, district, Disagreed, false},
		{"a district, then its village", district, village, Disagreed, false},
		{"two quarters of one city", babAlHadid, jdeideh, Disagreed, false},
		{"two points 1.3 km apart", pin, pinNear, Agreed, true},
		{"a point in the city's reach", pin, aleppo, Disagreed, false},
		{"the city, then a point in it", aleppo, pin, Disagreed, false},
	} {
		if state, verified := Outcome(agreement.Judge(c.a, c.b)); state != c.state || verified != c.verified {
			t.Errorf("%s: %s, %v; want %s, %v", c.name, state, verified, c.state, c.verified)
		}
	}
}

// TestMayConfirm: a confirmation that would check nothing is refused —
// of a placement waiting for its blind look, one waiting for a third
// editor, or one's own placement once a second look was asked of it.
func TestMayConfirm(t *testing.T) {
	placed := func(by, look string) *photo.Photo {
		return &photo.Photo{ID: "p1", Review: photo.ReviewCorrected, ReviewedBy: by, SecondLook: look}
	}
	none := Round{}
	for _, c := range []struct {
		name   string
		open   Round
		p      *photo.Photo
		author string
		want   string
	}{
		{"nothing open, another's placement", none, placed("rana", ""), "omar", ""},
		{"nothing open, one's own, no look asked", none, placed("rana", ""), "rana", ""},
		{"the geocoder's reading", none, &photo.Photo{ID: "p1", Review: photo.ReviewAutomatic}, "omar", ""},
		{"waiting, its first editor", round(Waiting, "rana", ""), placed("rana", Waiting), "rana", photo.EForbidden},
		{"waiting, its first editor in capitals", round(Waiting, "rana", ""), placed("rana", Waiting), "Rana", photo.EForbidden},
		{"waiting, another editor", round(Waiting, "rana", ""), placed("rana", Waiting), "omar", photo.EConflict},
		{"disagreed", round(Disagreed, "rana", "omar"), placed("omar", Disagreed), "lina", photo.EConflict},
		{"one's own once verified", none, placed("rana", Agreed), "rana", photo.EForbidden},
		{"one's own once verified, in capitals", none, placed("rana", Adjudicated), "RANA", photo.EForbidden},
		{"another's once verified", none, placed("rana", Agreed), "omar", ""},
		{"one's own confirmation, verified", none, &photo.Photo{ID: "p1", Review: photo.ReviewConfirmed, ReviewedBy: "rana", SecondLook: Agreed}, "rana", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := code(MayConfirm(c.open, c.p, c.author)); got != c.want {
				t.Errorf("MayConfirm by %q: %q, want %q", c.author, got, c.want)
			}
		})
	}
}

// TestBlind (issue 67, 4e): a blind look at a photo with an image file
// shows the file's own metadata and nothing of any answer: not the place,
// point, note or editor, nor the geocoder's reading, nor how the file
// agrees with the place the photo is shown at; the photo read is left as
// it was.
func TestBlind(t *testing.T) {
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	answer := photo.Place{ID: "gn:9", Name: "Qaryat", Kind: "village", Governorate: "Idlib", Lon: 38.7, Lat: 35.1, Located: true,
		Precision: "corrected", Mention: "Qaryat", Note: "the silo"}
	p := &photo.Photo{ID: "p1", Caption: "A shop.", Photographer: "A. Person", Agency: "AFP", ImageFile: "abc123",
		File:  &photo.File{Path: "in/shop.jpg", Meta: `{"city":"Idlib"}`},
		Place: answer, Geocoded: answer, Review: photo.ReviewCorrected, ReviewedBy: "rana", ReviewedAt: at,
		Correction: &photo.Correction{Note: "the silo"}, SecondLook: Waiting,
		Check: photo.Check{IPTCCity: "Idlib", IPTCCountry: "Syria", HasGPS: true, GPSLon: 36.6, GPSLat: 35.9, EXIFTime: "2016-05-01T10:00:00",
			Agreement: "agrees", Note: "the file's city agrees with Qaryat", Parts: "place",
			Findings: []photo.Finding{{Key: "city-agrees", Place: "gn:9", PlaceName: "Qaryat"}}}}
	before := *p
	b := Blind(p)
	leaks := map[string]bool{
		"place": !reflect.DeepEqual(b.Place, photo.Place{}), "geocoded": !reflect.DeepEqual(b.Geocoded, photo.Place{}), "correction": b.Correction != nil,
		"reviewer":  b.ReviewedBy != "" || !b.ReviewedAt.IsZero() || b.Review != photo.ReviewAutomatic,
		"agreement": b.Check.Agreement != "", "note": b.Check.Note != "", "parts": b.Check.Parts != "", "findings": len(b.Check.Findings) != 0,
	}
	for what, leaked := range leaks {
		if leaked {
			t.Errorf("the blind look shows the %s: %+v", what, b)
		}
	}
	if b.Caption != p.Caption || b.ImageFile != "abc123" || b.File == nil || b.Check.IPTCCity != "Idlib" || !b.Check.HasGPS ||
		b.Check.EXIFTime == "" || b.Photographer != "A. Person" || b.SecondLook != Waiting {
		t.Errorf("the blind look lost what the file says: %+v", b)
	}
	if !reflect.DeepEqual(*p, before) {
		t.Errorf("Blind changed the photo it was given: %+v", p)
	}
}

// TestFirstOf: a second look asked of a placed photo opens on its
// placement as it stands, by whoever made it.
func TestFirstOf(t *testing.T) {
	pl := photo.Place{ID: "gn:1", Lon: 37.1, Lat: 36.2, Located: true}
	corrected := &photo.Photo{Place: pl, Review: photo.ReviewCorrected, ReviewedBy: "rana", Correction: &photo.Correction{Note: "n"},
		Geocoded: photo.Place{ID: "gn:2", Precision: "exact"}}
	if a := FirstOf(corrected); a.By != "rana" || a.Decision != agreement.Correct || a.PlaceID != "gn:1" || !a.Located || a.Note != "n" {
		t.Errorf("FirstOf a correction: %+v", a)
	}
	if AutoPlace(corrected) != "gn:2" {
		t.Errorf("AutoPlace of a correction: %q, want the geocoder's gn:2", AutoPlace(corrected))
	}
	confirmed := &photo.Photo{Place: pl, Review: photo.ReviewConfirmed, ReviewedBy: "omar"}
	if a := FirstOf(confirmed); a.Decision != agreement.Confirm || a.By != "omar" {
		t.Errorf("FirstOf a confirmation: %+v", a)
	}
	if AutoPlace(confirmed) != "gn:1" {
		t.Errorf("AutoPlace of a confirmation: %q", AutoPlace(confirmed))
	}
	for _, c := range []struct {
		on   bool
		look string
		want bool
	}{{false, "", false}, {true, "", true}, {false, Requested, true}, {false, Agreed, true}} {
		if Wanted(c.on, c.look) != c.want {
			t.Errorf("Wanted(%v, %q) = %v", c.on, c.look, !c.want)
		}
	}
}

// TestSameEditor: names compare without case and space; nobody is no
// editor.
func TestSameEditor(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{{"rana", "rana", true}, {"Rana", "rana", true}, {" rana", "rana ", true}, {"rana", "omar", false}, {"", "", false}, {"", "rana", false}} {
		if photo.SameEditor(c.a, c.b) != c.want {
			t.Errorf("SameEditor(%q, %q) = %v", c.a, c.b, !c.want)
		}
	}
}

// TestNesting: of two answers that nest, the coarser is the one both
// named (the city, the district, the place a point lies in), the finer
// the one editor's alone, whichever came first.
func TestNesting(t *testing.T) {
	city := Answer{By: "omar", PlaceID: "aleppo", Kind: "city"}
	quarter := Answer{By: "rana", PlaceID: "bab-al-hadid", Kind: "neighbourhood"}
	village := Answer{By: "rana", PlaceID: "v", Kind: "village"}
	district := Answer{By: "omar", PlaceID: "ocha:SY0200", Kind: "district"}
	point := Answer{By: "rana", Located: true}
	for _, c := range []struct {
		name           string
		first, second  Answer
		coarser, finer string
	}{
		{"a quarter, then its city", quarter, city, "aleppo", "bab-al-hadid"},
		{"a city, then its quarter", city, quarter, "aleppo", "bab-al-hadid"},
		{"a village, then its district", village, district, "ocha:SY0200", "v"},
		{"a point, then the city it lies in", point, city, "aleppo", ""},
		{"the city, then a point in it", city, point, "aleppo", ""},
	} {
		coarser, finer := Nesting(Round{First: c.first, Second: c.second})
		if coarser.PlaceID != c.coarser || finer.PlaceID != c.finer {
			t.Errorf("%s: coarser %q, finer %q; want %q, %q", c.name, coarser.PlaceID, finer.PlaceID, c.coarser, c.finer)
		}
	}
}

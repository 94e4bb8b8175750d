package evalset

import (
	"testing"

	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
)

func TestCalibrate(t *testing.T) {
	answers := []Answer{
		{Placed: true, Confidence: 0.95, Right: true},
		{Placed: true, Confidence: 0.9, Right: false},
		{Placed: true, Confidence: 0.85, Right: true},
		{Placed: true, Confidence: 0.5, Right: true},
		{Placed: true, Confidence: 0.5, Right: false}, // ties: the wrong one ranks lower, as in score.py
		{Placed: false, Right: false},
		{Placed: true, Confidence: 0.7, Right: true},
		{Placed: true, Confidence: 0.6, Right: true},
		{Placed: true, Confidence: 0.4, Right: true},
		{Placed: true, Confidence: 0.3, Right: true},
	}
	got := Calibrate(answers)
	want := Calibration{Misses: 3, Caught: 1, High: 3, HighRight: 2}
	if got != want {
		t.Errorf("Calibrate = %+v, want %+v", got, want)
	}
	// The fifth is two answers: the unplaced one and the 0.3. With the
	// 0.3 and 0.4 moved up, the wrong 0.5 is next, before the right 0.5.
	answers[8].Confidence, answers[9].Confidence = 0.56, 0.55
	if got := Calibrate(answers); got.Caught != 2 {
		t.Errorf("Calibrate caught %d, want 2 (the unplaced answer and the wrong 0.5)", got.Caught)
	}
}

func TestSkeleton(t *testing.T) {
	for a, b := range map[string]string{"Khan Sheikhoun": "Khan Shaykhun", "Deir el-Zour": "Deir ez-Zor", "Arbeen": "Arbin"} {
		if Skeleton(a) != Skeleton(b) {
			t.Errorf("Skeleton(%q) = %q, Skeleton(%q) = %q", a, Skeleton(a), b, Skeleton(b))
		}
	}
}

// TestNamedVerdict: a real caption labelled with a name and no point is
// scored as score.py scores it: the answer's skeleton (a final h dropped)
// against any run of one to three of the label's words, a city answered
// for a quarter or town the label names beside it a fallback, and an
// Arabic label against the answer's Arabic name's words.
func TestNamedVerdict(t *testing.T) {
	waer := &gazetteer.Place{Name: "Wa'er", NameAr: "الوعر", Kind: gazetteer.Neighbourhood, Country: "SY", Located: true}
	maliha := &gazetteer.Place{Name: "Maliha", Kind: gazetteer.Town, Country: "SY", Located: true}
	homs := &gazetteer.Place{Name: "Homs", NameAr: "حمص", Kind: gazetteer.City, Country: "SY", Located: true}
	jarabulus := &gazetteer.Place{Name: "Jarabulus", Kind: gazetteer.Town, Country: "SY", Located: true}
	label := func(place, kind string, en ...string) Caption {
		c := Caption{ID: "x", Place: &place, PlaceKind: &kind}
		if len(en) > 0 {
			c.PlaceEn = &en[0]
		}
		return c
	}
	for _, tc := range []struct {
		c    Caption
		p    *gazetteer.Place
		want string
	}{
		{label("Waer neighbourhood in Homs", "neighbourhood"), waer, OK},
		{label("district of Waer", "neighbourhood"), waer, OK},
		{label("a tunnel in Mleha town, in the suburb of Damascus", "town"), maliha, OK},
		{label("Waer neighbourhood in Homs", "neighbourhood"), homs, Fallback},
		{label("Waer neighbourhood in Homs", "neighbourhood"), jarabulus, Miss},
		{label("أطراف حي الوعر", "neighbourhood", "the edge of al-Waer"), waer, OK},
		{label("أطراف حي الوعر", "neighbourhood"), homs, Miss},
		{label("Wa'er", "neighbourhood"), waer, OK},
	} {
		if got := PlaceVerdict(tc.c, tc.p, nil); got != tc.want {
			t.Errorf("PlaceVerdict(%q, %s) = %s, want %s", *tc.c.Place, tc.p.Name, got, tc.want)
		}
	}
}

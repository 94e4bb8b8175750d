package agreement

import (
	"math"
	"testing"
)

func TestJudge(t *testing.T) {
	aleppo := Answer{Decision: Confirm, PlaceID: "aleppo", Kind: "city", Lon: 37.16, Lat: 36.20, District: "SY0200", Governorate: "SY02",
		Ancestors: []string{"ocha:SY0200", "ocha:SY02"}}
	quarter := Answer{Decision: Correct, PlaceID: "bab-al-hadid", Kind: "neighbourhood", Lon: 37.13, Lat: 36.18, District: "SY0200", Governorate: "SY02",
		Ancestors: []string{"aleppo", "ocha:SY0200", "ocha:SY02"}}
	sibling := Answer{Decision: Correct, PlaceID: "salah-al-din", Kind: "neighbourhood", Lon: 37.135, Lat: 36.185, District: "SY0200", Governorate: "SY02",
		Ancestors: []string{"aleppo", "ocha:SY0200", "ocha:SY02"}}
	village := Answer{Decision: Correct, PlaceID: "village", Kind: "village", Lon: 37.50, Lat: 36.40, District: "SY0200", Governorate: "SY02",
		Ancestors: []string{"ocha:SY0200", "ocha:SY02"}}
	district := Answer{Decision: Correct, PlaceID: "ocha:SY0200", Kind: "district", Lon: 37.3, Lat: 36.3, District: "SY0200", Governorate: "SY02",
		Ancestors: []string{"ocha:SY02"}}
	elsewhere := Answer{Decision: Correct, PlaceID: "idlib", Kind: "city", Lon: 36.63, Lat: 35.93, District: "SY0700", Governorate: "SY07"}
	point := Answer{Decision: Correct, Lon: 37.161, Lat: 36.201}
	near := Answer{Decision: Correct, Lon: 37.17, Lat: 36.21}
	far := Answer{Decision: Correct, Lon: 37.40, Lat: 36.40}
	none := Answer{Decision: Unplaceable}
	tests := []struct {
		name                              string
		a, b                              Answer
		same, nested, gov, within, agreed bool
	}{
		{"one place", aleppo, aleppo, true, false, true, false, true},
		// rana's Bab al-Hadid and omar's Aleppo: 3.5 km apart, well within
		// the city's 12 km, but omar never named the quarter.
		{"a quarter of the city", aleppo, quarter, false, true, true, false, false},
		{"the city of the quarter, the other way round", quarter, aleppo, false, true, true, false, false},
		{"a village and its district", village, district, false, true, true, false, false},
		{"the district and its village", district, village, false, true, true, false, false},
		{"two quarters of one city (siblings), 700 m apart", quarter, sibling, false, false, true, false, false},
		{"two villages of one district are not nested", aleppo, village, false, false, true, false, false},
		{"another governorate", aleppo, elsewhere, false, false, false, false, false},
		{"a bare point in the city's reach", aleppo, point, false, true, false, false, false},
		{"the city's reach holds the point, the other way round", point, aleppo, false, true, false, false, false},
		{"two points 1.3 km apart", point, near, false, false, false, true, true},
		{"two points 30 km apart", point, far, false, false, false, false, false},
		{"unplaceable twice", none, none, true, false, false, false, true},
		{"placed and unplaceable", aleppo, none, false, false, false, false, false},
	}
	for _, tt := range tests {
		j := Judge(tt.a, tt.b)
		if j.SamePlace != tt.same || j.Nested != tt.nested || j.SameGovernorate != tt.gov || j.WithinSize != tt.within || j.Agreed != tt.agreed {
			t.Errorf("%s: got same %v nested %v gov %v within %v agreed %v; want %v %v %v %v %v", tt.name,
				j.SamePlace, j.Nested, j.SameGovernorate, j.WithinSize, j.Agreed, tt.same, tt.nested, tt.gov, tt.within, tt.agreed)
		}
	}
	// The distance and size, worked by hand: 0.03° of longitude and 0.02°
	// of latitude at 36.2° N are 2.69 km and 2.22 km, 3.49 km apart; a
	// city reaches 12 km.
	j := Judge(aleppo, quarter)
	if math.Abs(j.DistanceKm-3.49) > 0.02 || j.SizeKm != 12 {
		t.Errorf("distance %.3f km, size %.1f km: want 3.49 and 12", j.DistanceKm, j.SizeKm)
	}
	// A point against a quarter is measured against the quarter's reach
	// (1.5 km), not a bare point's 5 km.
	if j := Judge(point, quarter); j.SizeKm != 1.5 || j.Nested {
		t.Errorf("a point 3.5 km from a quarter: size %.1f km, nested %v; want 1.5 and false", j.SizeKm, j.Nested)
	}
	if j := Judge(aleppo, none); !math.IsNaN(j.DistanceKm) {
		t.Errorf("unplaceable: distance %v, want NaN", j.DistanceKm)
	}
}

func TestReadable(t *testing.T) {
	tests := []struct {
		name   string
		pairs  []Pair
		reason string
	}{
		{"no looks", nil, TooFewLooks},
		{"one look, two decisions (κ 0.00)", []Pair{{Confirm, Correct}}, TooFewLooks},
		{"nine looks", repeat(Pair{Confirm, Confirm}, 5, Pair{Correct, Correct}, 4), TooFewLooks},
		{"ten looks, one decision", repeat(Pair{Correct, Correct}, 10), OneDecision},
		{"ten looks, the first editor one decision", repeat(Pair{Correct, Correct}, 6, Pair{Correct, Confirm}, 4), OneDecision},
		{"ten looks, both decisions", repeat(Pair{Confirm, Confirm}, 5, Pair{Correct, Correct}, 5), ""},
	}
	for _, tt := range tests {
		if got := KappaReadable(tt.pairs); got != tt.reason {
			t.Errorf("KappaReadable(%s) = %q, want %q", tt.name, got, tt.reason)
		}
	}
	units := func(ps []Pair) []Unit {
		var out []Unit
		for _, p := range ps {
			out = append(out, Unit{"a": p.A, "b": p.B})
		}
		return out
	}
	alpha := []struct {
		name   string
		pairs  []Pair
		reason string
	}{
		{"one look", []Pair{{Confirm, Correct}}, TooFewLooks},
		{"ten looks, one decision", repeat(Pair{Correct, Correct}, 10), OneDecision},
		// α pools the values: one editor's single decision does not stop it.
		{"ten looks, the first editor one decision", repeat(Pair{Correct, Correct}, 6, Pair{Correct, Confirm}, 4), ""},
	}
	for _, tt := range alpha {
		if got := AlphaReadable(units(tt.pairs)); got != tt.reason {
			t.Errorf("AlphaReadable(%s) = %q, want %q", tt.name, got, tt.reason)
		}
	}
}

// repeat is p1 n1 times, then p2 n2 times, …
func repeat(args ...any) []Pair {
	var out []Pair
	for i := 0; i+1 < len(args); i += 2 {
		for range args[i+1].(int) {
			out = append(out, args[i].(Pair))
		}
	}
	return out
}

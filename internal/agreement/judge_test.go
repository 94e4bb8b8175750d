package agreement

import (
	"math"
	"testing"
)

func TestJudge(t *testing.T) {
	aleppo := Answer{Decision: Confirm, PlaceID: "aleppo", Kind: "city", Lon: 37.16, Lat: 36.20, District: "SY0200", Governorate: "SY02"}
	quarter := Answer{Decision: Correct, PlaceID: "salah-al-din", Kind: "neighbourhood", Lon: 37.13, Lat: 36.18, District: "SY0200", Governorate: "SY02", Ancestors: []string{"aleppo"}}
	village := Answer{Decision: Correct, PlaceID: "village", Kind: "village", Lon: 37.50, Lat: 36.40, District: "SY0200", Governorate: "SY02"}
	elsewhere := Answer{Decision: Correct, PlaceID: "idlib", Kind: "city", Lon: 36.63, Lat: 35.93, District: "SY0700", Governorate: "SY07"}
	point := Answer{Decision: Correct, Lon: 37.161, Lat: 36.201}
	none := Answer{Decision: Unplaceable}
	tests := []struct {
		name                              string
		a, b                              Answer
		same, nested, gov, within, agreed bool
	}{
		{"one place", aleppo, aleppo, true, true, true, true, true},
		{"a quarter of the city", aleppo, quarter, false, true, true, true, true},
		{"the city of the quarter, either way round", quarter, aleppo, false, true, true, true, true},
		{"a village of the district, 35 km out", aleppo, village, false, true, true, false, false},
		{"another governorate", aleppo, elsewhere, false, false, false, false, false},
		{"a bare point in the city", aleppo, point, false, false, false, true, true},
		{"unplaceable twice", none, none, true, false, false, false, true},
		{"placed and unplaceable", aleppo, none, false, false, false, false, false},
	}
	for _, tt := range tests {
		j := Judge(tt.a, tt.b)
		if j.SamePlace != tt.same || j.Nested != tt.nested || j.SameGovernorate != tt.gov || j.WithinSize != tt.within || j.Agreed != tt.agreed {
			t.Errorf("%s: got %+v", tt.name, j)
		}
	}
	// The distance and size, worked by hand: 0.03° of longitude and 0.02°
	// of latitude at 36.2° N are 2.69 km and 2.22 km, 3.49 km apart; a
	// city reaches 12 km.
	j := Judge(aleppo, quarter)
	if math.Abs(j.DistanceKm-3.49) > 0.02 || j.SizeKm != 12 {
		t.Errorf("distance %.3f km, size %.1f km: want 3.49 and 12", j.DistanceKm, j.SizeKm)
	}
	if j := Judge(aleppo, none); !math.IsNaN(j.DistanceKm) {
		t.Errorf("unplaceable: distance %v, want NaN", j.DistanceKm)
	}
}

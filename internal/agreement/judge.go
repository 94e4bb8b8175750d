package agreement

import (
	"math"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geo"

	"github.com/syriamap/syriamap/internal/photo"
)

// Decisions an editor takes on a photo's place, as κ and α count them.
const (
	Confirm     = "confirm"     // the geocoder's reading is right
	Correct     = "correct"     // the photo is elsewhere
	Unplaceable = "unplaceable" // the caption and file do not say where
)

// Answer is one editor's placement of a photo: a gazetteer place (its
// id, kind and administrative areas) or a bare point, or none
// (Unplaceable).
type Answer struct {
	Decision string
	PlaceID  string
	Kind     string // the place's kind, "" for a bare point
	Lon, Lat float64
	// District and Governorate are the P-codes of the areas the place
	// lies in ("" when unknown); Ancestors the ids of the places that
	// hold it (a quarter's city).
	District, Governorate string
	Ancestors             []string
}

// Judgement is how two independent answers about one photo compare, the
// three ways the agreement page shows.
type Judgement struct {
	// SamePlace: the same gazetteer place, or both unplaceable.
	SamePlace bool
	// Nested: one place holds the other (a quarter and its city), or both
	// lie in one district. SameGovernorate: both lie in one governorate.
	Nested, SameGovernorate bool
	// DistanceKm between the two points (NaN when either is unplaced),
	// SizeKm the larger reach of the two places (photo.PlaceRadiusKm):
	// within it, they name the same ground.
	DistanceKm, SizeKm float64
	WithinSize         bool
	// Agreed is what verifies a placement: the same place, or two points
	// within the place's size. Nested alone is not: "Aleppo" and a village
	// in its district are not one answer.
	Agreed bool
}

// Judge compares two answers.
func Judge(a, b Answer) Judgement {
	j := Judgement{DistanceKm: math.NaN()}
	if a.Decision == Unplaceable || b.Decision == Unplaceable {
		j.SamePlace = a.Decision == b.Decision
		j.Agreed = j.SamePlace
		return j
	}
	j.SamePlace = a.PlaceID != "" && a.PlaceID == b.PlaceID
	j.Nested = j.SamePlace || holds(a, b) || holds(b, a) || a.District != "" && a.District == b.District
	j.SameGovernorate = a.Governorate != "" && a.Governorate == b.Governorate
	j.DistanceKm = geo.Distance(orb.Point{a.Lon, a.Lat}, orb.Point{b.Lon, b.Lat}) / 1000
	j.SizeKm = math.Max(photo.PlaceRadiusKm(a.Kind), photo.PlaceRadiusKm(b.Kind))
	j.WithinSize = j.DistanceKm <= j.SizeKm
	j.Agreed = j.SamePlace || j.WithinSize
	return j
}

// holds reports whether outer's place holds inner's.
func holds(outer, inner Answer) bool {
	if outer.PlaceID == "" {
		return false
	}
	for _, id := range inner.Ancestors {
		if id == outer.PlaceID {
			return true
		}
	}
	return false
}

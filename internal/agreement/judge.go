package agreement

import (
	"math"
	"slices"

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
	// lies in ("" when unknown); Ancestors the ids of the places and
	// areas that hold it (a quarter's city, a village's district and
	// governorate, "ocha:" and their P-codes).
	District, Governorate string
	Ancestors             []string
}

// Judgement is how two independent answers about one photo compare, the
// three ways of agreeing the agreement page counts apart: the same place,
// nested places, and near points.
type Judgement struct {
	// SamePlace: the same gazetteer place, or both unplaceable.
	SamePlace bool
	// Nested: one answer holds the other — a quarter and its city, a
	// village and its district or governorate, a bare point within a
	// place's reach. Two places in one district or city (siblings) are
	// not nested. SameGovernorate: both lie in one governorate.
	Nested, SameGovernorate bool
	// DistanceKm between the two points (NaN when either is unplaced);
	// SizeKm the reach it is weighed against: a bare point's for two
	// points, the place's for a point and a place, the larger of two
	// places' (photo.PlaceRadiusKm).
	DistanceKm, SizeKm float64
	// WithinSize: two bare points (no place named) within a point's
	// reach of each other — the distance rule, which applies to points
	// only: two named places agree by being the same place.
	WithinSize bool
	// Agreed is what verifies a placement: both editors named it — the
	// same place, or two points within reach. Nested answers do not
	// agree: "Aleppo" does not verify a quarter of Aleppo, whose name
	// only the first editor gave.
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
	j.SameGovernorate = a.Governorate != "" && a.Governorate == b.Governorate
	j.DistanceKm = geo.Distance(orb.Point{a.Lon, a.Lat}, orb.Point{b.Lon, b.Lat}) / 1000
	j.SizeKm = math.Max(photo.PlaceRadiusKm(a.Kind), photo.PlaceRadiusKm(b.Kind))
	switch {
	case j.SamePlace:
	case a.PlaceID == "" && b.PlaceID == "": // two bare points: the distance rule
		j.WithinSize = j.DistanceKm <= j.SizeKm
	case a.PlaceID == "" || b.PlaceID == "": // a point within a place's reach nests in it
		j.SizeKm = photo.PlaceRadiusKm(a.Kind + b.Kind)
		j.Nested = j.DistanceKm <= j.SizeKm
	default:
		j.Nested = holds(a, b) || holds(b, a)
	}
	j.Agreed = j.SamePlace || j.WithinSize
	return j
}

// holds reports whether outer's place holds inner's: it is among the
// places and areas inner lies in.
func holds(outer, inner Answer) bool {
	return outer.PlaceID != "" && slices.Contains(inner.Ancestors, outer.PlaceID)
}

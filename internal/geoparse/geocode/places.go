package geocode

import (
	"math"
	"slices"
	"strings"

	"github.com/paulmach/orb"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
)

// contains reports whether place q holds place p: by the gazetteer's links,
// or by distance for a city (its suburbs), a region or an area.
func (gc *Geocoder) contains(q, p *gazetteer.Place) bool {
	if q == p || q.ID == p.ID {
		return false
	}
	if gc.g.Contains(q, p) {
		return true
	}
	if !q.Located || !p.Located || q.Country != p.Country {
		return false
	}
	var radius float64
	switch q.Kind {
	case gazetteer.Neighbourhood:
		// "the Bab Tadmur neighbourhood in the old city of Homs": an old
		// city holds the quarters of its city around it; no other
		// quarter holds another.
		if !oldCity(q) || p.Kind != gazetteer.Neighbourhood && p.Kind != gazetteer.Landmark || q.Parent == "" || q.Parent != p.Parent {
			return false
		}
		return within(q.Point, p.Point, oldCityRadius)
	case gazetteer.City:
		radius = 20000
	case gazetteer.Town:
		radius = 6000
	case gazetteer.Region, gazetteer.District:
		radius = 30000
	case gazetteer.Subdistrict:
		radius = 15000
	default:
		return false
	}
	// Cities are large and regions vague: only the gazetteer's links put a
	// city inside anything; nor is an area inside a point by distance, nor
	// one of two neighbouring towns inside the other (al-Fu'ah and Kafriya,
	// 3 km apart): a holder is of a larger kind.
	if p.Kind == gazetteer.City || p.Kind.Admin() || p.Kind == gazetteer.Region || specificity(p.Kind) >= specificity(q.Kind) {
		return false
	}
	return within(q.Point, p.Point, radius)
}

// specificity ranks kinds, 0 for the most specific (landmark).
func specificity(k gazetteer.Kind) int { return slices.Index(gazetteer.Kinds, k) }

// within reports whether points a and b ([lon, lat]) are at most metres
// apart. It uses the equirectangular approximation, which for the tens of
// kilometres compared here is within a fraction of a percent of
// geo.Distance and much cheaper, as it runs for every pair of readings.
func within(a, b orb.Point, metres float64) bool {
	const rad = math.Pi / 180
	r := metres / orb.EarthRadius
	y := (b[1] - a[1]) * rad
	// Most pairs are far apart in latitude alone: no cosine needed.
	if y > r || y < -r {
		return false
	}
	x := (b[0] - a[0]) * rad * math.Cos((a[1]+b[1])/2*rad)
	return x*x+y*y <= r*r
}

// oldCityRadius is how far from an old city's point a quarter of its city
// may lie and be in it: the walled cities are 1.5 to 3.5 km² (Homs,
// Aleppo), and the point the gazetteer holds may be a building inside
// rather than the centre.
const oldCityRadius = 1500

// oldCity reports whether p is the old city of a city, the quarter the
// gazetteer names "Old City of X".
func oldCity(p *gazetteer.Place) bool {
	return p.Kind == gazetteer.Neighbourhood && strings.HasPrefix(p.Name, "Old City of ")
}

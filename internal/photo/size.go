package photo

// placeRadiusKm is how far a place of each kind reaches from its point,
// in km: a city's extent, a town's, a village's or a quarter's, and the
// administrative areas' (whose point is a centroid). Two readings of a
// photo's place within this of each other name the same ground, and a
// photo shown at a place was taken somewhere within it.
var placeRadiusKm = map[string]float64{"city": 12, "town": 5, "village": 2, "neighbourhood": 1.5, "camp": 2, "landmark": 1.5,
	"crossing": 2, "subdistrict": 15, "district": 30, "governorate": 60, "region": 60}

// otherPlaceRadiusKm is the reach of a bare point or a place of a kind
// not listed.
const otherPlaceRadiusKm = 5.0

// PlaceRadiusKm is how far a place of kind ("city", "village", …, or ""
// for a bare point) reaches from its point, in km.
func PlaceRadiusKm(kind string) float64 {
	if r, ok := placeRadiusKm[kind]; ok {
		return r
	}
	return otherPlaceRadiusKm
}

// MaxSettlementRadiusKm is the largest reach of a settlement or a place
// within one (a city's): what a photo placed by name, not by area, can
// be from its place's point.
const MaxSettlementRadiusKm = 12.0

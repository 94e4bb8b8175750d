// Package gazetteer holds syriamap's bundled places: Syrian cities, towns,
// villages, neighbourhoods, camps, crossings, landmarks and administrative
// areas, plus the places just across the border that captions name.
//
// A Gazetteer is read-only after Load and safe for concurrent use.
package gazetteer

import "github.com/paulmach/orb"

// Kind says what sort of place an entry is.
type Kind string

// The kinds of place in the gazetteer.
const (
	City          Kind = "city"
	Town          Kind = "town"
	Village       Kind = "village"
	Neighbourhood Kind = "neighbourhood"
	Camp          Kind = "camp"
	Region        Kind = "region"
	Governorate   Kind = "governorate"
	District      Kind = "district"
	Subdistrict   Kind = "subdistrict"
	Crossing      Kind = "crossing"
	Landmark      Kind = "landmark"
)

// Kinds lists every kind, most specific first.
var Kinds = []Kind{Landmark, Crossing, Camp, Neighbourhood, Village, Town, City, Subdistrict, District, Region, Governorate}

// Valid reports whether k is one of the kinds above.
func (k Kind) Valid() bool {
	for _, v := range Kinds {
		if k == v {
			return true
		}
	}
	return false
}

// Populated reports whether k is a settlement (city, town or village).
func (k Kind) Populated() bool { return k == City || k == Town || k == Village }

// Admin reports whether k is an administrative area (governorate, district
// or subdistrict), whose point is an area centroid rather than a town.
func (k Kind) Admin() bool { return k == Governorate || k == District || k == Subdistrict }

// Governorate names a Syrian governorate (admin level 1) by its English name
// and OCHA P-code, e.g. {"Rural Damascus", "SY03"}.
type GovernorateRef struct {
	Name  string `json:"name"`
	PCode string `json:"pcode"`
}

// Place is one real place, merged across the sources that name it.
type Place struct {
	// ID is stable and names the source of the entry: "gn:170017" (GeoNames),
	// "ocha:N0130" (OCHA Aleppo neighbourhood), "ocha:SY07" (governorate,
	// district or subdistrict by P-code), "cur:zamalka" (curated supplement).
	ID   string `json:"id"`
	Name string `json:"name"`
	// Names are the other names: Latin transliterations and Arabic.
	Names []string `json:"names,omitempty"`
	Kind  Kind     `json:"kind"`
	// Point is [lon, lat] in WGS84. It is meaningful only when Located.
	Point orb.Point `json:"point"`
	// Located is false for places no source gives a point for; the geocoder
	// then places them at Parent, marked as a fallback.
	Located bool `json:"located"`
	// Parent is the ID of the place this one lies in (a neighbourhood's city),
	// or "".
	Parent      string         `json:"parent,omitempty"`
	Governorate GovernorateRef `json:"governorate"`
	Population  int            `json:"population,omitempty"`
	// Country is the ISO 3166-1 alpha-2 code: "SY", or "TR", "LB", "JO", "IQ"
	// for places across the border.
	Country string `json:"country"`
	// Sources lists where the entry and its point come from (dataset names
	// or the page a curated point was read from).
	Sources []string `json:"sources"`
}

// AllNames returns Name followed by Names.
func (p *Place) AllNames() []string {
	return append([]string{p.Name}, p.Names...)
}

// Package gazetteer holds syriamap's bundled places: Syrian cities, towns,
// villages, neighbourhoods, camps, crossings, landmarks and administrative
// areas, plus the places just across the border that captions name.
//
// A Gazetteer is read-only after Load and safe for concurrent use.
package gazetteer

import (
	"slices"
	"strconv"
	"strings"

	"github.com/paulmach/orb"
)

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

// AdminRef names a Syrian administrative area (governorate, district or
// subdistrict) by its display name and OCHA P-code, e.g. {"Idlib",
// "SY07"}; the zero AdminRef is none.
type AdminRef struct {
	Name  string `json:"name"`
	PCode string `json:"pcode"`
}

// Place is one real place, merged across the sources that name it.
type Place struct {
	// ID is stable and names the first source record of the entry:
	// "gn:170017" (GeoNames), "ocha:C1234" (an OCHA community),
	// "ocha:N0130" (an OCHA neighbourhood), "ocha:SY07" (a governorate,
	// district or subdistrict by P-code), "wof:85675081" (Who's On First),
	// "cur:zamalka" (a curated place).
	ID string `json:"id"`
	// Name is the name English-language news uses: the curated name, else
	// OCHA's English name, else GeoNames' ASCII name.
	Name string `json:"name"`
	// NameAr is the Arabic name, "" when no source gives one.
	NameAr string `json:"name_ar,omitempty"`
	// Names are the other names: Latin transliterations and Arabic.
	Names []string `json:"names,omitempty"`
	Kind  Kind     `json:"kind"`
	// Point is [lon, lat] in WGS84. It is meaningful only when Located.
	Point orb.Point `json:"point"`
	// Located is false for places no source gives a point for; the geocoder
	// then places them at Parent, marked as a fallback.
	Located bool `json:"located"`
	// Parent is the ID of the place this one lies in (a neighbourhood's
	// city, a hamlet's town), or "".
	Parent string `json:"parent,omitempty"`
	// Governorate, District and Subdistrict are OCHA's administrative
	// chain, zero outside Syria (and District and Subdistrict for places
	// above them).
	Governorate AdminRef `json:"governorate"`
	District    AdminRef `json:"district"`
	Subdistrict AdminRef `json:"subdistrict"`
	// Population is the number of inhabitants a source gives, or 0.
	Population int `json:"population,omitempty"`
	// Country is the ISO 3166-1 alpha-2 code: "SY", or "TR", "LB", "JO", "IQ"
	// for places across the border.
	Country string `json:"country"`
	// Refs are the ids of the other source records merged into this place
	// (ID is the first): each names a record a user can look up.
	Refs []string `json:"refs,omitempty"`
	// PointFrom is the id of the record the point was read from.
	PointFrom string `json:"point_from,omitempty"`
	// Sources are the pages curated points and names were read from.
	Sources []string `json:"sources,omitempty"`
	// Secondary marks a place an archive's editor added as another place
	// of a name the gazetteer holds ("another Aleppo"): the geocoder takes
	// it only where a caption's context picks it, and never counts it as
	// a rival that makes the gazetteer's place of that name less sure.
	Secondary bool `json:"-"`

	// prominence caches Prominence, set by New.
	prominence float64
}

// AllNames returns Name, NameAr when Names lacks it, then Names: every
// name the place is found by.
func (p *Place) AllNames() []string {
	out := make([]string, 0, len(p.Names)+2)
	out = append(out, p.Name)
	if p.NameAr != "" && !slices.Contains(p.Names, p.NameAr) {
		out = append(out, p.NameAr)
	}
	return append(out, p.Names...)
}

// Within names what holds the place, smallest first ("Douma, Rif
// Dimashq"), or its country's code abroad: place search's "in", on the
// server and the published site.
func (p *Place) Within() string {
	if p.Country != "SY" {
		return p.Country
	}
	var parts []string
	for _, a := range []AdminRef{p.Subdistrict, p.District, p.Governorate} {
		if a.Name != "" && (len(parts) == 0 || parts[len(parts)-1] != a.Name) {
			parts = append(parts, a.Name)
		}
	}
	return strings.Join(parts, ", ")
}

// IDs returns ID followed by Refs: every source record of the place.
func (p *Place) IDs() []string {
	return append([]string{p.ID}, p.Refs...)
}

// Curated reports whether the place is in a curated list of war-reported
// places (the shared supplement or the repo's own).
func (p *Place) Curated() bool {
	for _, id := range p.IDs() {
		if strings.HasPrefix(id, "cur:") {
			return true
		}
	}
	return false
}

// PCode returns the place's OCHA P-code (a community's "C1234", a
// neighbourhood's "N0130", an area's "SY07"), or "".
func (p *Place) PCode() string {
	for _, id := range p.IDs() {
		if code, ok := strings.CutPrefix(id, "ocha:"); ok {
			return code
		}
	}
	return ""
}

// GeoNamesID returns the place's GeoNames id, or 0.
func (p *Place) GeoNamesID() int {
	for _, id := range p.IDs() {
		if s, ok := strings.CutPrefix(id, "gn:"); ok {
			if n, err := strconv.Atoi(s); err == nil {
				return n
			}
		}
	}
	return 0
}

// WOFID returns the place's Who's On First id, or 0.
func (p *Place) WOFID() int64 {
	for _, id := range p.IDs() {
		if s, ok := strings.CutPrefix(id, "wof:"); ok {
			if n, err := strconv.ParseInt(s, 10, 64); err == nil {
				return n
			}
		}
	}
	return 0
}

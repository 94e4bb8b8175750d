package web

import (
	"net/url"
	"slices"
)

// The read API's parameters of one value, each checked by one rule that
// the server applies (Parse) and a published site's script reads as data
// (SiteRules' params and messages), so that both refuse the same values
// with the same words.

// The messages of a bad parameter, fmt's verbs in the order given: the
// site's script formats the same strings.
const (
	IntMessage  = "%q is not a whole number from %d to %d"
	EnumMessage = "%q: want %s"
	OnceMessage = "given %d times (%s); give it once"
)

// IntRule is a whole-number parameter: Default when absent, else from Min
// to Max, given once.
type IntRule struct {
	Name    string `json:"name"`
	Default int    `json:"default"`
	Min     int    `json:"min"`
	Max     int    `json:"max"`
}

// Parse reads the parameter from q.
func (p IntRule) Parse(q url.Values) (int, error) {
	return IntParam(q, p.Name, p.Default, p.Min, p.Max)
}

// EnumRule is a parameter that takes one of a few words; absent, it is
// Values[0]. Want says the choices in the message.
type EnumRule struct {
	Name   string   `json:"name"`
	Values []string `json:"values"`
	Want   string   `json:"want"`
}

// Parse reads the parameter from q.
func (p EnumRule) Parse(q url.Values) (string, error) {
	v := q.Get(p.Name)
	if v == "" {
		return p.Values[0], nil
	}
	if !slices.Contains(p.Values, v) {
		return "", BadParam(p.Name, EnumMessage, v, p.Want)
	}
	return v, nil
}

// The rules of the read API's parameters.
var (
	ListLimit   = IntRule{Name: "limit", Default: 0, Min: 0, Max: 10_000_000}
	ListOffset  = IntRule{Name: "offset", Default: 0, Min: 0, Max: 10_000_000}
	ListOrder   = EnumRule{Name: "order", Values: []string{"import", "newest"}, Want: "newest or import"}
	FacetsLimit = IntRule{Name: "limit", Default: 50, Min: 1, Max: 100_000}
	// FacetsField's first value, "", asks for every facet.
	FacetsField = EnumRule{Name: "field", Values: []string{"", "agency", "photographer", "governorate", "place"}, Want: "agency, photographer, governorate or place"}
	TimelineBin = EnumRule{Name: "bin", Values: []string{"month", "year", "day"}, Want: "month, year or day"}
	// ClustersZoom has no default: absent, it is -1, refused with
	// ZoomRequiredMessage.
	ClustersZoom = IntRule{Name: "zoom", Default: -1, Min: 0, Max: 20}
)

// ZoomRequiredMessage refuses /api/clusters without its zoom.
const ZoomRequiredMessage = "is required: the map's zoom level, 0 to 20"

// Place search's parameters: a name of 1 to MaxPlaceName bytes, how many
// places, and whether only those that hold photos.
const (
	MaxPlaceName     = 100
	PlaceNameMessage = "give a name of 1 to %d bytes"
)

var (
	PlacesLimit      = IntRule{Name: "limit", Default: 10, Min: 1, Max: 50}
	PlacesWithPhotos = EnumRule{Name: "with_photos", Values: []string{"false", "true"}, Want: "true or false"}
)

// pathRules are each read path's rules, as the site checks them (the
// server's handlers name theirs where they read them).
type pathRules struct {
	// Filters says the path reads the list filters (ParseFilter), and
	// EnumsFirst that its enums are checked before them.
	Filters    bool       `json:"filters,omitempty"`
	EnumsFirst bool       `json:"enums_first,omitempty"`
	Ints       []IntRule  `json:"ints,omitempty"`
	Enums      []EnumRule `json:"enums,omitempty"`
}

func apiParamRules() map[string]pathRules {
	list := pathRules{Filters: true, Ints: []IntRule{ListLimit, ListOffset}, Enums: []EnumRule{ListOrder}}
	return map[string]pathRules{
		"photos.geojson": list,
		"photos.csv":     list,
		"points.json":    list,
		"clusters":       {Filters: true, Ints: []IntRule{ClustersZoom}},
		"facets":         {Filters: true, Ints: []IntRule{FacetsLimit}, Enums: []EnumRule{FacetsField}},
		"timeline":       {Filters: true, EnumsFirst: true, Enums: []EnumRule{TimelineBin}},
		// The name (q) first: the site checks it by PlaceNameMessage.
		"places/search": {Ints: []IntRule{PlacesLimit}, Enums: []EnumRule{PlacesWithPhotos}},
	}
}

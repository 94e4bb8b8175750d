package photo

import "github.com/paulmach/orb"

// Filter selects photos. The zero Filter selects every photo.
type Filter struct {
	// From and To bound a time window; a photo is in it when the period
	// its date covers (a day, a month or a year) overlaps the window. A
	// zero bound is open. Undated photos are outside any window.
	From, To Date
	// BBox selects placed photos inside it ([lon, lat]); nil for any.
	BBox *orb.Bound
	// Query is a full-text search over captions (SQLite FTS5 syntax).
	Query        string
	Agency       string
	Photographer string
	PlaceID      string
	// Governorate matches a governorate's name or P-code.
	Governorate   string
	MinConfidence float64
	// Unplaced selects only the photos with no point.
	Unplaced bool
	// Limit and Offset page the results; Limit 0 means no limit.
	Limit, Offset int
	// Newest orders streamed features newest first (undated last), as
	// lists show them, instead of in import order.
	Newest bool
}

// MonthCount is the number of photos whose date falls in Month ("2016-03"),
// or, for photos dated only to a year, in Month "2016".
type MonthCount struct {
	Month string
	Count int
}

// Count is a facet value and how many photos have it.
type Count struct {
	Value string
	Label string
	Count int
}

// Facets counts photos by agency, photographer, governorate and place.
type Facets struct {
	Agencies, Photographers, Governorates, Places []Count
}

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
	Query string
	// Agencies, Photographers and PlaceIDs each select the photos with
	// any of their values; empty selects any.
	Agencies, Photographers, PlaceIDs []string
	// Governorates match a governorate's name or P-code.
	Governorates []string
	// Agreements select the photos whose caption agrees with their image
	// file's metadata so (AgreementAgrees, AgreementNear,
	// AgreementDisagrees); empty selects any.
	Agreements    []string
	MinConfidence float64
	// IDs, when not empty, select those photos only.
	IDs []string
	// Reuse selects the photos whose frame is also another's: ReuseCopy
	// (the captions agree) or ReuseConflict (they do not); "" any.
	Reuse string
	// Event selects the photos an editor linked to the event
	// ("ucdp-ged:270123"), or with EventAny to any event; "" any photo.
	Event string
	// Verified selects only the photos whose placement two editors
	// agreed on blind, or a third decided (Photo.Verified).
	Verified bool
	// Unplaced selects only the photos with no point.
	Unplaced bool
	// Unreviewed selects the photos no person has corrected or confirmed;
	// MentionKey, when not nil, those whose place was read from text that
	// folds to that key (the store's MentionKey; "" for none).
	Unreviewed bool
	MentionKey *string
	// Limit and Offset page the results; Limit 0 means no limit.
	Limit, Offset int
	// Newest orders streamed features newest first (undated last), as
	// lists show them, instead of in import order; Oldest oldest first.
	Newest, Oldest bool
	// After, when not 0, selects only the photos that come after the one
	// whose Seq (import sequence) it is, in the filter's order: paging by
	// the last photo seen, which neither repeats nor skips a photo when
	// others are added or change place before it.
	After int64
	// Conds are further conditions, all of which a photo meets (an OGC
	// API filter: "agency = 'AFP' AND date >= DATE('2016-01-01')").
	Conds []Cond
}

// Cond compares one of a photo's queryable properties with a value:
// Property is a GeoJSON property name (agency, photographer, place_id,
// place_name, place_kind, governorate, country, precision, mention,
// confidence, date, id), Op one of = <> < <= > >=, Value a string, a
// float64, or for date a Date.
type Cond struct {
	Property string
	Op       string
	Value    any
}

// MonthCount is the number of photos whose date falls in Month ("2016-03"),
// or, for photos dated only to a year, in Month "2016".
type MonthCount struct {
	Month string
	Count int
}

// IsZero reports whether f selects every photo, in import order.
func (f Filter) IsZero() bool {
	return f.From.IsZero() && f.To.IsZero() && f.BBox == nil && f.Query == "" && len(f.Agencies) == 0 &&
		len(f.Photographers) == 0 && len(f.PlaceIDs) == 0 && len(f.Governorates) == 0 && len(f.Agreements) == 0 && f.MinConfidence == 0 && f.Reuse == "" && f.Event == "" && !f.Verified && len(f.IDs) == 0 &&
		!f.Unplaced && !f.Unreviewed && f.MentionKey == nil && f.Limit == 0 && f.Offset == 0 && !f.Newest && !f.Oldest &&
		f.After == 0 && len(f.Conds) == 0
}

// Facet names one of the fields photos are counted by.
type Facet string

// The facets.
const (
	FacetAgency       Facet = "agency"
	FacetPhotographer Facet = "photographer"
	FacetGovernorate  Facet = "governorate"
	FacetPlace        Facet = "place"
)

// AllFacets lists every facet, in the order pages show them.
var AllFacets = []Facet{FacetAgency, FacetPhotographer, FacetGovernorate, FacetPlace}

// Without returns f without its own selection of facet: the counts of a
// facet's values are those of the other filters, so that a person sees
// what choosing one more value would add.
func (f Filter) Without(facet Facet) Filter {
	switch facet {
	case FacetAgency:
		f.Agencies = nil
	case FacetPhotographer:
		f.Photographers = nil
	case FacetGovernorate:
		f.Governorates = nil
	case FacetPlace:
		f.PlaceIDs = nil
	}
	return f
}

// Count is a facet value and how many photos have it.
type Count struct {
	Value string
	Label string
	Count int
}

// Facets counts photos by agency, photographer, governorate and place;
// a facet not asked for is nil.
type Facets struct {
	Agencies, Photographers, Governorates, Places []Count
}

// Of returns the counts of one facet.
func (fc *Facets) Of(facet Facet) *[]Count {
	switch facet {
	case FacetAgency:
		return &fc.Agencies
	case FacetPhotographer:
		return &fc.Photographers
	case FacetGovernorate:
		return &fc.Governorates
	}
	return &fc.Places
}

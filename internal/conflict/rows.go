package conflict

import "github.com/paulmach/orb"

// EventQuery selects conflict events for maps, lists and the OGC API.
type EventQuery struct {
	// From and To bound the days (YYYYMMDD) an event's span meets; 0 is
	// open.
	From, To int
	// BBox selects the events whose point is inside it.
	BBox *orb.Bound
	// Kinds select the types of violence (conflict.Event.Kind); empty
	// any.
	Kinds []string
	// Documented, when not nil, selects the events with photos an
	// editor linked (true) or with none (false).
	Documented *bool
	// MaxWherePrec, when not 0, selects the events whose place is known
	// at least so well (GED's where_prec 1 … MaxWherePrec).
	MaxWherePrec  int
	Limit, Offset int
}

// EventRow is an event with the number of photos linked to it that the
// viewer may see.
type EventRow struct {
	Event
	Photos int
}

// EventsHeld is how many events of one version of a dataset the archive
// holds, the retired aside.
type EventsHeld struct {
	Dataset, Version string
	Events           int
}

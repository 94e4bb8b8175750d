package store

import (
	"github.com/syriamap/syriamap/internal/conflict"
	"github.com/syriamap/syriamap/internal/photo"
)

// The store's names for the domain types its methods take and give:
// the types live with the concept they describe, so that the packages
// above the archive speak them without importing the store.
type (
	Checkpoint  = photo.Checkpoint
	Link        = photo.CustodyLink
	Reuse       = photo.Reuse
	Summary     = photo.ImportSummary
	SearchRules = photo.SearchRules
	EventQuery  = conflict.EventQuery
	EventRow    = conflict.EventRow
	EventsHeld  = conflict.EventsHeld
)

package photo

import (
	"strings"
	"time"
)

// An editor's decisions on an event the linker suggested, or one they
// named by its id.
const (
	LinkConfirmed = "confirmed" // the photo documents the event
	LinkRejected  = "rejected"  // it does not: the suggestion is not made as new again
)

// EventAny is Filter.Event for a photo linked to any event.
const EventAny = "any"

// EventLink is an editor's decision on whether a photo documents a
// conflict event of a dataset (conflict.GED, conflict.ACLED), at the
// dataset's version the editor saw.
type EventLink struct {
	PhotoID  string    `json:"photo,omitempty"`
	Dataset  string    `json:"dataset"`
	Version  string    `json:"version"`
	EventID  string    `json:"id"`
	Decision string    `json:"decision"`
	By       string    `json:"by"`
	At       time.Time `json:"at"`
}

// Key is the link's event as filters and features name it:
// "ucdp-ged:270123".
func (l EventLink) Key() string { return EventKey(l.Dataset, l.EventID) }

// EventKey names an event of a dataset: "ucdp-ged:270123".
func EventKey(dataset, id string) string { return dataset + ":" + id }

// SplitEventKey reads an EventKey; ok is false when key is not one.
func SplitEventKey(key string) (dataset, id string, ok bool) {
	dataset, id, ok = strings.Cut(key, ":")
	return dataset, id, ok && dataset != "" && id != "" && !strings.ContainsAny(key, " \t\r\n")
}

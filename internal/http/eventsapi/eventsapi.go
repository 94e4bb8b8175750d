// Package eventsapi serves the conflict events beside the photos: the
// events' layer of the map (every UCDP GED event, compact) and their
// GeoJSON download, an event's page with the photos linked to it and
// those nearby, a photo's events (the links editors confirmed and the
// candidates, ranked by conflict.Rank) and the editors' writes of those
// links. ACLED's events are the editors' alone (its licence): the
// archive's reads leave them out for anyone else, and the routes that
// show them are editorial.
package eventsapi

import (
	"context"
	"net/http"
	"time"

	"github.com/gorilla/mux"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/conflict"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/http/pagemodel"
	"github.com/syriamap/syriamap/internal/http/session"
	"github.com/syriamap/syriamap/internal/http/sitepage"
	"github.com/syriamap/syriamap/internal/photo"
)

// API serves the events of an archive. Set its fields before it serves.
type API struct {
	Kit   *sitepage.Kit
	DB    Store
	Guard *session.Guard
	// Error answers an error: the server's, which answers a page's form
	// that met a newer version of the photo with the page that says so.
	Error func(w http.ResponseWriter, r *http.Request, err error)
	// TagPhoto sets a write's answer's ETag to photo id's version now,
	// for the next write to send back as If-Match.
	TagPhoto func(w http.ResponseWriter, r *http.Request, id string)
	// Base is the scheme, host and prefix absolute links begin with;
	// PageURLs, the server's links for the page models.
	Base     func(r *http.Request) string
	PageURLs func() pagemodel.URLs
	// Now is the clock of the downloads' time stamps.
	Now func() time.Time
}

// Store is what the events' routes read and write of the archive. Its
// reads answer as ctx's viewer may see (photo.ViewerOf): ACLED's events
// and withheld photos for editors only.
type Store interface {
	// Events are the events q selects, and how many there are.
	Events(ctx context.Context, q conflict.EventQuery) ([]conflict.EventRow, int, error)
	// EventsCitation cites the datasets of the events held, as their
	// licences ask.
	EventsCitation(ctx context.Context) (string, error)
	// EventPhotos is an event with the photos linked to it and nearby.
	EventPhotos(ctx context.Context, dataset, id string) (archive.EventWithPhotos, error)
	// EventsOf are the events photo id documents and may document.
	EventsOf(ctx context.Context, id string) (archive.PhotoEvents, error)
	// SetEventLink records actor's decision ("" takes it back) on whether
	// photo id documents the event.
	SetEventLink(ctx context.Context, id, dataset, eventID, decision, actor string) (bool, error)
	// EventLinks are the editors' decisions on photo id's events.
	EventLinks(ctx context.Context, id string) ([]photo.EventLink, error)
	// SetEventLinks records it on the rows of one incident, together.
	SetEventLinks(ctx context.Context, id, dataset string, eventIDs []string, decision, actor string) (bool, error)
	// Gazetteer names the places of the photos' rows.
	Gazetteer() *gazetteer.Gazetteer
}

// Routes adds the events' routes to r: get adds a read route, open a
// read route any origin may use (GIS clients), editorial one that shows
// an editor more (session.Guard.Viewing).
func (a *API) Routes(r *mux.Router, get, open, editorial func(name, path string, h http.HandlerFunc)) {
	get("events.points", "/api/events/points.json", a.eventPoints)
	open("events.geojson", "/api/events.geojson", a.eventsGeoJSON)
	editorial("event", "/events/{dataset}/{event}", a.eventPage)
	editorial("photo.events", "/api/photos/{id}/events", a.photoEvents)
	r.Handle("/api/photos/{id}/events/{dataset}/{event}", a.Guard.Editing(session.Expecting(photo.VersionPhoto, "id", a.putEventLink))).
		Methods(http.MethodPut, http.MethodDelete).Name("photo.event-link")
	r.Handle("/photos/{id}/events", a.Guard.Editing(session.Expecting(photo.VersionPhoto, "id", a.postEventLink))).
		Methods(http.MethodPost).Name("photo.event-links")
}

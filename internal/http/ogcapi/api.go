// Package ogcapi serves OGC API – Features (Core, GeoJSON, HTML, OpenAPI
// 3.0, queryables) over the photo archive and the gazetteer, and the
// photos as Mapbox vector tiles, so that QGIS, ArcGIS and GDAL open the
// archive as a live layer.
//
// It is a part of the server (httpapi), which registers its handlers
// under its own routes and lends it what every route shares: route
// links, errors, ETags, pages, and the photo read API (the memory index
// and the streaming of features from SQLite). That is the Host.
package ogcapi

import (
	"context"
	"log/slog"
	"net/http"
	"net/url"

	"github.com/a-h/templ"

	"github.com/syriamap/syriamap/internal/conflict"
	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/http/memindex"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/views"
)

// Host is what the OGC API asks of the server it is part of.
type Host interface {
	// URL is the path of a named route; pairs are its variables.
	URL(name string, pairs ...string) string
	// Base is the scheme, host and path prefix links start with.
	Base(r *http.Request) string
	// Error answers err, as every route does.
	Error(w http.ResponseWriter, r *http.Request, err error)
	// WriteJSON answers v as JSON of the content type.
	WriteJSON(w http.ResponseWriter, r *http.Request, contentType string, v any)
	// Render answers a page; Page is the frame of one.
	Render(w http.ResponseWriter, r *http.Request, status int, c templ.Component)
	Page(r *http.Request, title, current string) views.Page
	// Version is the archive version the request is answered from (its
	// ETag and 304s are the host's), or false when the error is answered.
	Version(w http.ResponseWriter, r *http.Request) (version int64, ok bool)
	// Filter reads the list filters of a query.
	Filter(q url.Values) (photo.Filter, error)
	// MemIndex is the memory index of the archive at version, or nil.
	MemIndex(version int64) *memindex.Index
	// WriteWindow writes the photos at sel from the index, gzipped.
	WriteWindow(w http.ResponseWriter, ix *memindex.Index, sel []int32, head string, tail func(returned int, last int64) string)
	// StreamFeatures writes the filter's photos from SQLite between head
	// and tail, sep between them, each encoded by enc.
	StreamFeatures(w http.ResponseWriter, r *http.Request, f photo.Filter, head, sep string, tail func(written int, last int64) string, enc web.EncodeFunc)
	// Links are a photo's links under base.
	Links(base string, f *photo.Feature) web.FeatureLinks
}

// Storage is what the OGC API reads of the archive.
type Storage interface {
	CountPhotos(ctx context.Context, f photo.Filter) (int, error)
	EachFeature(ctx context.Context, f photo.Filter, fn func(f *photo.Feature) error) error
	Extent(ctx context.Context) (photo.Extent, error)
	Clusters(ctx context.Context, f photo.Filter, cell float64) ([]photo.Cluster, error)
	// The events collection's: UCDP GED's events as the viewer may see
	// them, one event, its links, and the datasets held.
	Events(ctx context.Context, q conflict.EventQuery) ([]conflict.EventRow, int, error)
	Event(ctx context.Context, dataset, id string) (conflict.Event, string, error)
	LinksToEvent(ctx context.Context, dataset, id string) ([]photo.EventLink, error)
	EventDatasets(ctx context.Context) ([]conflict.EventsHeld, error)
}

// API is the OGC API and the vector tiles: its handlers are the
// exported methods.
type API struct {
	host      Host
	db        Storage
	gazetteer *gazetteer.Gazetteer
	log       *slog.Logger
	// publicGPS: see httpapi.Options.PublicGPS.
	publicGPS bool
	// gazetteerBBox is the extent of the gazetteer's places.
	gazetteerBBox [4]float64
}

// New returns the API over db and g, part of host.
func New(host Host, db Storage, g *gazetteer.Gazetteer, publicGPS bool, log *slog.Logger) *API {
	return &API{host: host, db: db, gazetteer: g, log: log, publicGPS: publicGPS, gazetteerBBox: placeBBox(g)}
}

// The handlers, registered by the server under its routes (see the route
// names each one links to: ogc, ogc.conformance, ogc.api, ogc.collections,
// ogc.collection, ogc.queryables, ogc.items, ogc.item, tilejson, tile).
func (s *API) Landing(w http.ResponseWriter, r *http.Request)     { s.ogcLanding(w, r) }
func (s *API) Conformance(w http.ResponseWriter, r *http.Request) { s.ogcConformancePage(w, r) }
func (s *API) OpenAPI(w http.ResponseWriter, r *http.Request)     { s.ogcAPI(w, r) }
func (s *API) Collections(w http.ResponseWriter, r *http.Request) { s.ogcCollections(w, r) }
func (s *API) Collection(w http.ResponseWriter, r *http.Request)  { s.ogcCollectionPage(w, r) }
func (s *API) Queryables(w http.ResponseWriter, r *http.Request)  { s.ogcQueryables(w, r) }
func (s *API) Items(w http.ResponseWriter, r *http.Request) {
	s.byCollection(s.photoItems, s.placeItems, s.eventItems)(w, r)
}
func (s *API) Item(w http.ResponseWriter, r *http.Request) {
	s.byCollection(s.photoItem, s.placeItem, s.eventItem)(w, r)
}
func (s *API) TileJSON(w http.ResponseWriter, r *http.Request) { s.tileJSON(w, r) }
func (s *API) Tile(w http.ResponseWriter, r *http.Request)     { s.photoTile(w, r) }

// The host's services under the names the handlers use.

func (s *API) url(name string, pairs ...string) string { return s.host.URL(name, pairs...) }
func (s *API) base(r *http.Request) string             { return s.host.Base(r) }
func (s *API) error(w http.ResponseWriter, r *http.Request, err error) {
	s.host.Error(w, r, err)
}
func (s *API) writeJSON(w http.ResponseWriter, r *http.Request, contentType string, v any) {
	s.host.WriteJSON(w, r, contentType, v)
}
func (s *API) render(w http.ResponseWriter, r *http.Request, status int, c templ.Component) {
	s.host.Render(w, r, status, c)
}
func (s *API) page(r *http.Request, title, current string) views.Page {
	return s.host.Page(r, title, current)
}
func (s *API) version(w http.ResponseWriter, r *http.Request) (int64, bool) {
	return s.host.Version(w, r)
}
func (s *API) parseFilter(q url.Values) (photo.Filter, error) { return s.host.Filter(q) }
func (s *API) memIndexAt(v int64) *memindex.Index             { return s.host.MemIndex(v) }
func (s *API) writeWindow(w http.ResponseWriter, ix *memindex.Index, sel []int32, head string, tail func(int, int64) string) {
	s.host.WriteWindow(w, ix, sel, head, tail)
}
func (s *API) streamFeatures(w http.ResponseWriter, r *http.Request, f photo.Filter, head, sep string, tail func(int, int64) string, enc web.EncodeFunc) {
	s.host.StreamFeatures(w, r, f, head, sep, tail, enc)
}
func (s *API) links(base string, f *photo.Feature) web.FeatureLinks { return s.host.Links(base, f) }

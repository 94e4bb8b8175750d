package ogcapi

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/gorilla/mux"

	"github.com/syriamap/syriamap/geodata"
	"github.com/syriamap/syriamap/internal/conflict"
	"github.com/syriamap/syriamap/internal/http/cql"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/views"
)

// OGC API – Features (Part 1: Core, GeoJSON, HTML, OpenAPI 3.0; Part 3:
// queryables and queryables as query parameters) under /ogc, so that
// QGIS, ArcGIS and GDAL connect to the archive as a live layer and fetch
// only what the view and the time window need. Two collections: photos
// (the archive) and places (the gazetteer).

// The items' page sizes. A limit above the maximum is a 400 naming limit,
// as the OpenAPI document says: never a silent truncation.
const (
	DefaultLimit = 100
	MaxLimit     = 10_000
)

// The requirement classes the API conforms to, each tested in ogc_test.go.
// CQL2 is not claimed: the filter parameter reads comparisons joined by
// AND, not all of Basic CQL2 (OR, NOT, IS NULL), and a client that reads
// the claim would send what the server then refuses.
var ConformsTo = []string{
	"http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core",
	"http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson",
	"http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/html",
	"http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/oas30",
	"http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/queryables",
	"http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/queryables-query-parameters",
}

// CRS84 is the one coordinate reference system: longitude, latitude on
// WGS 84, as GeoJSON has it.
const CRS84 = "http://www.opengis.net/def/crs/OGC/1.3/CRS84"

// Media types of the OGC resources.
const (
	mediaJSON    = "application/json"
	mediaGeoJSON = "application/geo+json"
	mediaHTML    = "text/html"
	mediaOpenAPI = "application/vnd.oai.openapi+json;version=3.0"
	mediaSchema  = "application/schema+json"
	relQueryable = "http://www.opengis.net/def/rel/ogc/1.0/queryables"
)

// Link is a link as OGC APIs write them.
type Link struct {
	Href  string `json:"href"`
	Rel   string `json:"rel"`
	Type  string `json:"type,omitempty"`
	Title string `json:"title,omitempty"`
}

// ogcFormat is the format a request asks for: f=json or f=html, else the
// Accept header (a browser's text/html before any JSON), else JSON.
func ogcFormat(r *http.Request) (string, error) {
	switch f := r.URL.Query().Get("f"); f {
	case "json", "geojson":
		return "json", nil
	case "html":
		return "html", nil
	case "":
	default:
		return "", web.BadParam("f", "%q: want json or html", f)
	}
	accept := r.Header.Get("Accept")
	h, j := strings.Index(accept, "text/html"), strings.Index(accept, "json")
	if h >= 0 && (j < 0 || h < j) {
		return "html", nil
	}
	return "json", nil
}

// checkParams refuses a query parameter the resource does not take
// (web.CheckParams): known are its lists of parameters.
func checkParams(q url.Values, known ...[]string) error {
	return web.CheckParams(q, slices.Concat(known...)...)
}

// ogcStart reads what every OGC resource reads: its format, its
// parameters, and the CRS they ask for where they may. It returns done
// when the response is already answered.
func (s *API) ogcStart(w http.ResponseWriter, r *http.Request, known ...[]string) (format string, done bool) {
	format, err := ogcFormat(r)
	if err == nil {
		err = checkParams(r.URL.Query(), append(known, []string{"f"})...)
	}
	if err == nil {
		err = checkCRS(r.URL.Query())
	}
	if err != nil {
		s.error(w, r, err)
		return "", true
	}
	return format, false
}

// selfLinks are a resource's self and alternate links, for its JSON
// (of media type typ) and its HTML page.
func (s *API) selfLinks(r *http.Request, format, typ string) []Link {
	q := r.URL.Query()
	withF := func(f string) string {
		q.Set("f", f)
		return s.base(r) + r.URL.Path + "?" + q.Encode()
	}
	jsonLink := Link{Href: withF("json"), Type: typ, Title: "This document as JSON"}
	htmlLink := Link{Href: withF("html"), Type: mediaHTML, Title: "This document as HTML"}
	if format == "html" {
		htmlLink.Rel, jsonLink.Rel = "self", "alternate"
		return []Link{htmlLink, jsonLink}
	}
	jsonLink.Rel, htmlLink.Rel = "self", "alternate"
	return []Link{jsonLink, htmlLink}
}

// ogcPage renders an OGC resource as a page, its words in the reader's
// language (the documents' own titles, text() finds in the catalogue).
func (s *API) ogcPage(w http.ResponseWriter, r *http.Request, m views.OGC) {
	l := i18n.From(r.Context())
	m.Heading, m.Description = text(l, m.Heading), text(l, m.Description)
	for i := range m.Facts {
		m.Facts[i].Label, m.Facts[i].Value = text(l, m.Facts[i].Label), text(l, m.Facts[i].Value)
	}
	for i := range m.Columns {
		m.Columns[i] = text(l, m.Columns[i])
	}
	m.Page = s.page(r, m.Heading, "")
	s.render(w, r, http.StatusOK, views.OGCPage(m))
}

// pageLinks turns OGC links into page links, leaving out self.
func pageLinks(l i18n.Locale, links []Link) []views.Link {
	var out []views.Link
	loc := l
	for _, l := range links {
		if l.Rel == "self" {
			continue
		}
		rel := l.Rel[strings.LastIndex(l.Rel, "/")+1:] // a relation's URI by its last word
		label := l.Title
		if label == "" {
			label = rel
		}
		out = append(out, views.Link{Label: text(loc, label) + " " + loc.Isolate("("+rel+")"), URL: l.Href})
	}
	return out
}

// ogcLanding is the API's landing page: what it is and where to go.
func (s *API) ogcLanding(w http.ResponseWriter, r *http.Request) {
	format, done := s.ogcStart(w, r)
	if done {
		return
	}
	base := s.base(r)
	links := append(s.selfLinks(r, format, mediaJSON),
		Link{Href: base + s.url("ogc.api"), Rel: "service-desc", Type: mediaOpenAPI, Title: "The API definition (OpenAPI 3.0)"},
		Link{Href: base + s.url("ogc.api") + "?f=html", Rel: "service-doc", Type: mediaHTML, Title: "The API documentation"},
		Link{Href: base + s.url("ogc.conformance"), Rel: "conformance", Type: mediaJSON, Title: "Conformance classes"},
		Link{Href: base + s.url("ogc.collections"), Rel: "data", Type: mediaJSON, Title: "Collections: photos and places"},
		Link{Href: base + s.url("tilejson"), Rel: "describedby", Type: mediaJSON, Title: "Vector tiles of the photos (TileJSON)"})
	const title = "syriamap: OGC API – Features"
	const description = "News photos of the Syrian war, placed by their captions, and the gazetteer of Syrian places, " +
		"as OGC API – Features collections for GIS clients (QGIS, ArcGIS, GDAL)."
	if format == "html" {
		s.ogcPage(w, r, views.OGC{Heading: title, Description: description, Links: pageLinks(i18n.From(r.Context()), links)})
		return
	}
	s.writeJSON(w, r, mediaJSON, map[string]any{"title": title, "description": description, "links": links})
}

// ogcConformancePage lists the requirement classes.
func (s *API) ogcConformancePage(w http.ResponseWriter, r *http.Request) {
	format, done := s.ogcStart(w, r)
	if done {
		return
	}
	if format == "html" {
		m := views.OGC{Heading: "Conformance", Description: "The requirement classes this API conforms to."}
		for _, c := range ConformsTo {
			m.Links = append(m.Links, views.Link{Label: i18n.From(r.Context()).Isolate(c), URL: c})
		}
		s.ogcPage(w, r, m)
		return
	}
	s.writeJSON(w, r, mediaJSON, map[string]any{"conformsTo": ConformsTo})
}

// CollectionInfo is a collection's description.
type CollectionInfo struct {
	ID          string     `json:"id"`
	Title       string     `json:"title"`
	Description string     `json:"description"`
	Links       []Link     `json:"links"`
	Extent      ExtentInfo `json:"extent"`
	ItemType    string     `json:"itemType"`
	CRS         []string   `json:"crs"`
	StorageCRS  string     `json:"storageCrs"`
}

type ExtentInfo struct {
	Spatial struct {
		BBox [][4]float64 `json:"bbox"`
		CRS  string       `json:"crs"`
	} `json:"spatial"`
	Temporal *struct {
		Interval [][2]*string `json:"interval"`
		TRS      string       `json:"trs"`
	} `json:"temporal,omitempty"`
}

// collection describes one collection; its extent is measured now.
func (s *API) collection(r *http.Request, id string) (CollectionInfo, error) {
	base := s.base(r)
	c := CollectionInfo{ID: id, ItemType: "feature", CRS: []string{CRS84}, StorageCRS: CRS84}
	items := base + s.url("ogc.items", "collection", id)
	c.Links = []Link{
		{Href: base + s.url("ogc.collection", "collection", id), Rel: "self", Type: mediaJSON, Title: "This collection"},
		{Href: base + s.url("ogc.collection", "collection", id) + "?f=html", Rel: "alternate", Type: mediaHTML, Title: "This collection as HTML"},
		{Href: items, Rel: "items", Type: mediaGeoJSON, Title: "The items as GeoJSON"},
		{Href: items + "?f=html", Rel: "items", Type: mediaHTML, Title: "The items as HTML"},
		{Href: base + s.url("ogc.queryables", "collection", id), Rel: relQueryable, Type: mediaSchema, Title: "What the items can be filtered by"},
	}
	switch id {
	case "photos":
		c.Title = "Photos"
		c.Description = "News photos, each at the place its caption says it was taken, dated by its caption " +
			"(date is the first day of the day, month or year it gives; date_precision says which). " +
			"Photos no place was found for have no geometry."
		c.Links = append(c.Links, Link{Href: base + s.url("tilejson"), Rel: "tiles", Type: mediaJSON, Title: "Vector tiles (TileJSON)"})
		e, err := s.db.Extent(r.Context())
		if err != nil {
			return c, err
		}
		c.Extent.Spatial.BBox = [][4]float64{s.gazetteerBBox} // an archive with no placed photo
		if e.BBox != nil {
			c.Extent.Spatial.BBox[0] = [4]float64{e.BBox.Min[0], e.BBox.Min[1], e.BBox.Max[0], e.BBox.Max[1]}
		}
		c.Extent.Temporal = &struct {
			Interval [][2]*string `json:"interval"`
			TRS      string       `json:"trs"`
		}{Interval: [][2]*string{{nil, nil}}, TRS: "http://www.opengis.net/def/uom/ISO-8601/0/Gregorian"}
		if !e.First.IsZero() {
			first := e.First.String() + "T00:00:00Z"
			last := e.Last.String() + "T23:59:59Z"
			c.Extent.Temporal.Interval[0] = [2]*string{&first, &last}
		}
	case "events":
		c.Title = "Conflict events"
		c.Description = "UCDP GED's conflict events the archive holds, each with the number of photos editors linked to it (photos). " +
			"date_prec and where_prec are GED's precision codes, in words as date_known and place_known: an event known only to its governorate " +
			"or the country is at that area's point."
		held, err := s.db.EventDatasets(r.Context())
		if err != nil {
			return c, err
		}
		for _, h := range held {
			if h.Dataset == conflict.GED {
				c.Description += " Cite: " + geodata.CiteGED(h.Version)
			}
		}
		c.Extent.Spatial.BBox = [][4]float64{s.gazetteerBBox}
	case "places":
		c.Title = "Places"
		c.Description = "The gazetteer: Syria's cities, towns, villages, city quarters, camps and crossings, " +
			"and the places across the border that captions name, with their Arabic names and OCHA's " +
			"administrative chain. Places no source gives a point for have no geometry."
		c.Extent.Spatial.BBox = [][4]float64{s.gazetteerBBox}
	}
	c.Extent.Spatial.CRS = CRS84
	return c, nil
}

// ogcCollections lists the collections.
func (s *API) ogcCollections(w http.ResponseWriter, r *http.Request) {
	format, done := s.ogcStart(w, r)
	if done {
		return
	}
	var cs []CollectionInfo
	for _, id := range collectionIDs {
		c, err := s.collection(r, id)
		if err != nil {
			s.error(w, r, err)
			return
		}
		cs = append(cs, c)
	}
	links := s.selfLinks(r, format, mediaJSON)
	if format == "html" {
		l := i18n.From(r.Context())
		m := views.OGC{Heading: "Collections", Description: "The data this API serves.", Links: pageLinks(l, links)}
		for _, c := range cs {
			m.Links = append(m.Links, views.Link{Label: text(l, c.Title) + ": " + text(l, c.Description), URL: c.Links[1].Href})
		}
		s.ogcPage(w, r, m)
		return
	}
	s.writeJSON(w, r, mediaJSON, map[string]any{"links": links, "collections": cs})
}

// collectionIDs are the collections.
var collectionIDs = []string{"photos", "places", "events"}

// collectionID is the route's collection, or a 404.
func collectionID(r *http.Request) (string, error) {
	id := mux.Vars(r)["collection"]
	if !slices.Contains(collectionIDs, id) {
		return "", web.NotFound("no collection %q: there are photos, places and events", id)
	}
	return id, nil
}

// ogcCollectionPage describes one collection.
func (s *API) ogcCollectionPage(w http.ResponseWriter, r *http.Request) {
	id, err := collectionID(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	format, done := s.ogcStart(w, r)
	if done {
		return
	}
	c, err := s.collection(r, id)
	if err != nil {
		s.error(w, r, err)
		return
	}
	if format == "html" {
		links := append(s.selfLinks(r, "html", mediaJSON), c.Links[2:]...)
		l := i18n.From(r.Context())
		m := views.OGC{Heading: c.Title, Description: c.Description, Links: pageLinks(l, links)}
		b := c.Extent.Spatial.BBox[0]
		corner := func(lon, lat float64) string {
			return l.Number(strconv.FormatFloat(lon, 'f', 4, 64)) + l.T("common.list-sep") + l.Number(strconv.FormatFloat(lat, 'f', 4, 64))
		}
		m.Facts = append(m.Facts, views.Fact{Label: "Extent (lon, lat)", Value: l.T("ogc.range", "from", corner(b[0], b[1]), "to", corner(b[2], b[3]))})
		if t := c.Extent.Temporal; t != nil && t.Interval[0][0] != nil {
			m.Facts = append(m.Facts, views.Fact{Label: "Time", Value: l.T("ogc.range", "from", l.Number((*t.Interval[0][0])[:10]), "to", l.Number((*t.Interval[0][1])[:10]))})
		}
		m.Facts = append(m.Facts, views.Fact{Label: "Coordinates", Value: "CRS84 (longitude, latitude, WGS 84)"})
		s.ogcPage(w, r, m)
		return
	}
	s.writeJSON(w, r, mediaJSON, c)
}

// queryable is one property items can be filtered by, as JSON Schema.
type queryable struct {
	name  string
	typ   cql.Type
	title string
}

// photoQueryables are the photos' queryables: GeoJSON properties, each a
// query parameter (name=value, equality; agency, photographer, place_id
// and governorate may repeat, any of them) and a name in filter.
var photoQueryables = []queryable{
	{"date", cql.Date, "The first day of the photo's date (its day, month or year)"},
	{"agency", cql.String, "The agency credited"},
	{"photographer", cql.String, "The photographer credited"},
	{"place_id", cql.String, "The gazetteer place's id (any of its source ids)"},
	{"place_name", cql.String, "The place's name"},
	{"place_kind", cql.String, "The kind of place: city, town, village, neighbourhood, camp, …"},
	{"governorate", cql.String, "The Syrian governorate, by name or OCHA P-code"},
	{"country", cql.String, "The place's country, ISO 3166-1 alpha-2"},
	{"precision", cql.String, "How the place was found: exact, fallback, corrected, given or none"},
	{"confidence", cql.Number, "The geocoder's confidence, 0 to 1"},
	{"mention", cql.String, "The caption's words the place was read from"},
	{"agreement", cql.String, "How the caption agrees with its image file's IPTC location, GPS and clock: agrees, near or disagrees"},
	{"iptc_city", cql.String, "The city the image file's IPTC or XMP metadata names"},
}

// placeQueryables are the places collection's.
var placeQueryables = []queryable{
	{"name", cql.String, "Any of the place's names, in any spelling the gazetteer knows"},
	{"kind", cql.String, "The kind of place"},
	{"governorate", cql.String, "The Syrian governorate, by name or OCHA P-code"},
	{"country", cql.String, "ISO 3166-1 alpha-2"},
}

func queryablesOf(id string) []queryable {
	switch id {
	case "places":
		return placeQueryables
	case "events":
		return eventQueryables
	}
	return photoQueryables
}

func queryableNames(qs []queryable) []string {
	out := make([]string, len(qs))
	for i, q := range qs {
		out[i] = q.name
	}
	return out
}

// schemaOf is a queryable's JSON Schema.
func schemaOf(q queryable) map[string]any {
	m := map[string]any{"title": q.title, "type": "string"}
	switch q.typ {
	case cql.Number:
		m["type"] = "number"
	case cql.Date:
		m["format"] = "date"
		m["x-ogc-role"] = "primary-instant"
	}
	return m
}

// ogcQueryables serves a collection's queryables as a JSON Schema.
func (s *API) ogcQueryables(w http.ResponseWriter, r *http.Request) {
	id, err := collectionID(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	format, done := s.ogcStart(w, r)
	if done {
		return
	}
	props := map[string]any{"geometry": map[string]any{"format": "geometry-point", "x-ogc-role": "primary-geometry"}}
	for _, q := range queryablesOf(id) {
		props[q.name] = schemaOf(q)
	}
	if format == "html" {
		l := i18n.From(r.Context())
		m := views.OGC{Heading: l.T("ogc.queryables-of", "id", id), Description: "Each is a query parameter of the items (name=value)."}
		if id == "photos" {
			m.Description = "Each is a query parameter of the items (name=value) and a property in filter (CQL2 text: comparisons joined by AND)."
		}
		for _, q := range queryablesOf(id) {
			m.Facts = append(m.Facts, views.Fact{Label: q.name, Value: q.title})
		}
		s.ogcPage(w, r, m)
		return
	}
	s.writeJSON(w, r, mediaSchema, map[string]any{
		"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": s.base(r) + r.URL.Path,
		"type": "object", "title": id, "properties": props, "additionalProperties": false,
	})
}

// byCollection routes a request on a collection to the handler of its
// collection, or answers 404.
func (s *API) byCollection(photos, places, events http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, err := collectionID(r)
		if err != nil {
			s.error(w, r, err)
			return
		}
		map[string]http.HandlerFunc{"photos": photos, "places": places, "events": events}[id](w, r)
	}
}

// PhotoQueryables are the names of the photos' queryables.
func PhotoQueryables() []string { return queryableNames(photoQueryables) }

// PlaceQueryables are the names of the places' queryables.
func PlaceQueryables() []string { return queryableNames(placeQueryables) }

// text is an OGC page's English text (a heading, a title of the API's
// documents) in the reader's language: the catalogue's "ogc:" + text,
// or the text as it is (a parameter's name), which the API's JSON keeps;
// on an Arabic page the parameters' names and values it quotes set
// apart as Latin text.
func text(l i18n.Locale, english string) string {
	if l.Lang == i18n.English {
		return english
	}
	if key := "ogc:" + english; i18n.Has(key) {
		return l.IsolateLatin(l.T(key))
	}
	return l.IsolateLatin(english)
}

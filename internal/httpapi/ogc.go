package httpapi

import (
	"bytes"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"github.com/syriamap/syriamap/internal/cql"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/store"
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
	ogcDefaultLimit = 100
	ogcMaxLimit     = 10_000
)

// The requirement classes the API conforms to, each tested in ogc_test.go.
// CQL2 is not claimed: the filter parameter reads comparisons joined by
// AND, not all of Basic CQL2 (OR, NOT, IS NULL), and a client that reads
// the claim would send what the server then refuses.
var ogcConformance = []string{
	"http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core",
	"http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson",
	"http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/html",
	"http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/oas30",
	"http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/queryables",
	"http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/queryables-query-parameters",
}

// CRS84 is the one coordinate reference system: longitude, latitude on
// WGS 84, as GeoJSON has it.
const crs84 = "http://www.opengis.net/def/crs/OGC/1.3/CRS84"

// Media types of the OGC resources.
const (
	mediaJSON    = "application/json"
	mediaGeoJSON = "application/geo+json"
	mediaHTML    = "text/html"
	mediaOpenAPI = "application/vnd.oai.openapi+json;version=3.0"
	mediaSchema  = "application/schema+json"
	relQueryable = "http://www.opengis.net/def/rel/ogc/1.0/queryables"
)

// ogcLink is a link as OGC APIs write them.
type ogcLink struct {
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
		return "", badParam("f", "%q: want json or html", f)
	}
	accept := r.Header.Get("Accept")
	h, j := strings.Index(accept, "text/html"), strings.Index(accept, "json")
	if h >= 0 && (j < 0 || h < j) {
		return "html", nil
	}
	return "json", nil
}

// checkParams refuses a query parameter the resource does not take, as
// OGC API – Features asks (a misspelt filter must not be ignored).
func checkParams(q url.Values, known ...[]string) error {
	for name := range q {
		ok := false
		for _, list := range known {
			for _, k := range list {
				ok = ok || k == name
			}
		}
		if !ok {
			return badParam(name, "is not a parameter of this resource")
		}
	}
	return nil
}

// ogcStart reads what every OGC resource reads: its format and its
// parameters. It returns done when the response is already answered.
func (s *Server) ogcStart(w http.ResponseWriter, r *http.Request, known ...[]string) (format string, done bool) {
	format, err := ogcFormat(r)
	if err == nil {
		err = checkParams(r.URL.Query(), append(known, []string{"f"})...)
	}
	if err != nil {
		s.error(w, r, err)
		return "", true
	}
	return format, false
}

// selfLinks are a resource's self and alternate links, for its JSON
// (of media type typ) and its HTML page.
func (s *Server) selfLinks(r *http.Request, format, typ string) []ogcLink {
	q := r.URL.Query()
	withF := func(f string) string {
		q.Set("f", f)
		return s.base(r) + r.URL.Path + "?" + q.Encode()
	}
	jsonLink := ogcLink{Href: withF("json"), Type: typ, Title: "This document as JSON"}
	htmlLink := ogcLink{Href: withF("html"), Type: mediaHTML, Title: "This document as HTML"}
	if format == "html" {
		htmlLink.Rel, jsonLink.Rel = "self", "alternate"
		return []ogcLink{htmlLink, jsonLink}
	}
	jsonLink.Rel, htmlLink.Rel = "self", "alternate"
	return []ogcLink{jsonLink, htmlLink}
}

// ogcPage renders an OGC resource as a page.
func (s *Server) ogcPage(w http.ResponseWriter, r *http.Request, m views.OGC) {
	m.Page = s.page(r, m.Heading, "")
	s.render(w, r, http.StatusOK, views.OGCPage(m))
}

// pageLinks turns OGC links into page links, leaving out self.
func pageLinks(links []ogcLink) []views.Link {
	var out []views.Link
	for _, l := range links {
		if l.Rel == "self" {
			continue
		}
		rel := l.Rel[strings.LastIndex(l.Rel, "/")+1:] // a relation's URI by its last word
		label := l.Title
		if label == "" {
			label = rel
		}
		out = append(out, views.Link{Label: label + " (" + rel + ")", URL: l.Href})
	}
	return out
}

// ogcLanding is the API's landing page: what it is and where to go.
func (s *Server) ogcLanding(w http.ResponseWriter, r *http.Request) {
	format, done := s.ogcStart(w, r)
	if done {
		return
	}
	base := s.base(r)
	links := append(s.selfLinks(r, format, mediaJSON),
		ogcLink{Href: base + s.url("ogc.api"), Rel: "service-desc", Type: mediaOpenAPI, Title: "The API definition (OpenAPI 3.0)"},
		ogcLink{Href: base + s.url("ogc.api") + "?f=html", Rel: "service-doc", Type: mediaHTML, Title: "The API documentation"},
		ogcLink{Href: base + s.url("ogc.conformance"), Rel: "conformance", Type: mediaJSON, Title: "Conformance classes"},
		ogcLink{Href: base + s.url("ogc.collections"), Rel: "data", Type: mediaJSON, Title: "Collections: photos and places"},
		ogcLink{Href: base + s.url("tilejson"), Rel: "describedby", Type: mediaJSON, Title: "Vector tiles of the photos (TileJSON)"})
	const title = "syriamap: OGC API – Features"
	const description = "News photos of the Syrian war, placed by their captions, and the gazetteer of Syrian places, " +
		"as OGC API – Features collections for GIS clients (QGIS, ArcGIS, GDAL)."
	if format == "html" {
		s.ogcPage(w, r, views.OGC{Heading: title, Description: description, Links: pageLinks(links)})
		return
	}
	s.writeJSON(w, r, mediaJSON, map[string]any{"title": title, "description": description, "links": links})
}

// ogcConformancePage lists the requirement classes.
func (s *Server) ogcConformancePage(w http.ResponseWriter, r *http.Request) {
	format, done := s.ogcStart(w, r)
	if done {
		return
	}
	if format == "html" {
		m := views.OGC{Heading: "Conformance", Description: "The requirement classes this API conforms to."}
		for _, c := range ogcConformance {
			m.Links = append(m.Links, views.Link{Label: c, URL: c})
		}
		s.ogcPage(w, r, m)
		return
	}
	s.writeJSON(w, r, mediaJSON, map[string]any{"conformsTo": ogcConformance})
}

// ogcCollection is a collection's description.
type ogcCollection struct {
	ID          string    `json:"id"`
	Title       string    `json:"title"`
	Description string    `json:"description"`
	Links       []ogcLink `json:"links"`
	Extent      ogcExtent `json:"extent"`
	ItemType    string    `json:"itemType"`
	CRS         []string  `json:"crs"`
	StorageCRS  string    `json:"storageCrs"`
}

type ogcExtent struct {
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
func (s *Server) collection(r *http.Request, id string) (ogcCollection, error) {
	base := s.base(r)
	c := ogcCollection{ID: id, ItemType: "feature", CRS: []string{crs84}, StorageCRS: crs84}
	items := base + s.url("ogc.items", "collection", id)
	c.Links = []ogcLink{
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
		c.Links = append(c.Links, ogcLink{Href: base + s.url("tilejson"), Rel: "tiles", Type: mediaJSON, Title: "Vector tiles (TileJSON)"})
		e, err := s.archive.DB.Extent(r.Context())
		if err != nil {
			return c, err
		}
		c.Extent.Spatial.BBox = [][4]float64{syriaBBox}
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
	case "places":
		c.Title = "Places"
		c.Description = "The gazetteer: Syria's cities, towns, villages, city quarters, camps and crossings, " +
			"and the places across the border that captions name, with their Arabic names and OCHA's " +
			"administrative chain. Places no source gives a point for have no geometry."
		c.Extent.Spatial.BBox = [][4]float64{s.gazetteerBBox}
	}
	c.Extent.Spatial.CRS = crs84
	return c, nil
}

// syriaBBox frames an archive with no placed photo: Syria and its
// neighbours' border areas, from the bundled gazetteer's extent.
var syriaBBox = [4]float64{35.0, 32.0, 42.5, 37.5}

// ogcCollections lists the collections.
func (s *Server) ogcCollections(w http.ResponseWriter, r *http.Request) {
	format, done := s.ogcStart(w, r)
	if done {
		return
	}
	var cs []ogcCollection
	for _, id := range []string{"photos", "places"} {
		c, err := s.collection(r, id)
		if err != nil {
			s.error(w, r, err)
			return
		}
		cs = append(cs, c)
	}
	links := s.selfLinks(r, format, mediaJSON)
	if format == "html" {
		m := views.OGC{Heading: "Collections", Description: "The data this API serves.", Links: pageLinks(links)}
		for _, c := range cs {
			m.Links = append(m.Links, views.Link{Label: c.Title + ": " + c.Description, URL: c.Links[1].Href})
		}
		s.ogcPage(w, r, m)
		return
	}
	s.writeJSON(w, r, mediaJSON, map[string]any{"links": links, "collections": cs})
}

// collectionID is the route's collection, or a 404.
func collectionID(r *http.Request) (string, error) {
	id := mux.Vars(r)["collection"]
	if id != "photos" && id != "places" {
		return "", notFound("no collection %q: there are photos and places", id)
	}
	return id, nil
}

// ogcCollectionPage describes one collection.
func (s *Server) ogcCollectionPage(w http.ResponseWriter, r *http.Request) {
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
		m := views.OGC{Heading: c.Title, Description: c.Description, Links: pageLinks(links)}
		b := c.Extent.Spatial.BBox[0]
		m.Facts = append(m.Facts, views.Fact{Label: "Extent (lon, lat)", Value: strconv.FormatFloat(b[0], 'f', 4, 64) + ", " +
			strconv.FormatFloat(b[1], 'f', 4, 64) + " to " + strconv.FormatFloat(b[2], 'f', 4, 64) + ", " + strconv.FormatFloat(b[3], 'f', 4, 64)})
		if t := c.Extent.Temporal; t != nil && t.Interval[0][0] != nil {
			m.Facts = append(m.Facts, views.Fact{Label: "Time", Value: (*t.Interval[0][0])[:10] + " to " + (*t.Interval[0][1])[:10]})
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
}

// placeQueryables are the places collection's.
var placeQueryables = []queryable{
	{"name", cql.String, "Any of the place's names, in any spelling the gazetteer knows"},
	{"kind", cql.String, "The kind of place"},
	{"governorate", cql.String, "The Syrian governorate, by name or OCHA P-code"},
	{"country", cql.String, "ISO 3166-1 alpha-2"},
}

func queryablesOf(id string) []queryable {
	if id == "places" {
		return placeQueryables
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
func (s *Server) ogcQueryables(w http.ResponseWriter, r *http.Request) {
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
		m := views.OGC{Heading: "Queryables of " + id, Description: "Each is a query parameter of the items (name=value)" +
			map[bool]string{true: " and a property in filter (CQL2 text: comparisons joined by AND).", false: "."}[id == "photos"]}
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

// ogcItems serves a collection's items.
func (s *Server) ogcItems(w http.ResponseWriter, r *http.Request) {
	id, err := collectionID(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	if id == "places" {
		s.placeItems(w, r)
		return
	}
	s.photoItems(w, r)
}

// ogcItem serves one item.
func (s *Server) ogcItem(w http.ResponseWriter, r *http.Request) {
	id, err := collectionID(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	if id == "places" {
		s.placeItem(w, r)
		return
	}
	s.photoItem(w, r)
}

// itemsParams are the parameters every items resource takes.
var itemsParams = []string{"limit", "offset", "bbox", "bbox-crs", "crs", "resultType"}

// photoItemsParams are the photos' further ones: the API's filters, the
// OGC datetime, sortby and filter.
var photoItemsParams = append([]string{"datetime", "sortby", "filter", "filter-lang", "filter-crs"}, filterParams...)

// paging reads limit and offset.
func paging(q url.Values) (limit, offset int, err error) {
	limit, err = intParam(q, "limit", ogcDefaultLimit, 1, ogcMaxLimit)
	if err == nil {
		offset, err = intParam(q, "offset", 0, 0, 1<<40)
	}
	return limit, offset, err
}

// checkCRS accepts CRS84, the one CRS offered, in crs and bbox-crs.
func checkCRS(q url.Values) error {
	for _, name := range []string{"crs", "bbox-crs"} {
		if v := q.Get(name); v != "" && v != crs84 && v != "["+crs84+"]" {
			return badParam(name, "%q: only %s (longitude, latitude) is offered", v, crs84)
		}
	}
	return nil
}

// resultHits reports resultType=hits: the count without the features.
func resultHits(q url.Values) (bool, error) {
	switch v := q.Get("resultType"); v {
	case "", "results":
		return false, nil
	case "hits":
		return true, nil
	default:
		return false, badParam("resultType", "%q: want results or hits", v)
	}
}

// photoItemsFilter reads the photos' items query into a filter: the API's
// own filters, datetime as the window, each queryable as an equality,
// filter in CQL2 text, sortby, limit and offset.
func (s *Server) photoItemsFilter(q url.Values) (photo.Filter, error) {
	if err := checkCRS(q); err != nil {
		return photo.Filter{}, err
	}
	api := url.Values{}
	for _, k := range filterParams {
		if v, ok := q[k]; ok {
			api[k] = v
		}
	}
	api["place"] = append(api["place"], q["place_id"]...)
	f, err := s.parseFilter(api)
	if err != nil {
		return f, err
	}
	if v := q.Get("datetime"); v != "" {
		if !f.From.IsZero() || !f.To.IsZero() {
			return f, badParam("datetime", "give either datetime or from and to")
		}
		if f.From, f.To, err = parseDatetime(v); err != nil {
			return f, err
		}
	}
	types := map[string]cql.Type{}
	for _, qb := range photoQueryables {
		types[qb.name] = qb.typ
		switch qb.name {
		case "agency", "photographer", "place_id", "governorate":
			continue // read above, repeatable
		}
		v, ok := q[qb.name]
		if !ok {
			continue
		}
		conds, err := cql.Parse(qb.name+" = "+literal(qb.typ, v[0]), map[string]cql.Type{qb.name: qb.typ})
		if err != nil {
			return f, badParam(qb.name, "%q is not a %s", v[0], map[cql.Type]string{cql.Number: "number", cql.Date: "date (YYYY-MM-DD)", cql.String: "value"}[qb.typ])
		}
		f.Conds = append(f.Conds, conds...)
	}
	if v := q.Get("filter"); v != "" {
		if lang := q.Get("filter-lang"); lang != "" && lang != "cql2-text" {
			return f, badParam("filter-lang", "%q: only cql2-text is read", lang)
		}
		if err := checkCRS(url.Values{"crs": q["filter-crs"]}); err != nil {
			return f, badParam("filter-crs", "only %s is offered", crs84)
		}
		conds, err := cql.Parse(v, types)
		if err != nil {
			return f, err
		}
		f.Conds = append(f.Conds, conds...)
	}
	switch v := q.Get("sortby"); v {
	case "":
	case "date", "+date":
		f.Oldest = true
	case "-date":
		f.Newest = true
	default:
		return f, badParam("sortby", "%q: want date or -date", v)
	}
	f.Limit, f.Offset, err = paging(q)
	return f, err
}

// literal writes a query parameter's value as a CQL2 literal of its type.
func literal(t cql.Type, v string) string {
	switch t {
	case cql.Number:
		return v
	case cql.Date:
		return "DATE('" + strings.ReplaceAll(v, "'", "''") + "')"
	}
	return "'" + strings.ReplaceAll(v, "'", "''") + "'"
}

// parseDatetime reads OGC's datetime: an instant, or an interval whose
// ends are instants or open (".." or empty). An instant selects the
// photos whose date's day, month or year overlaps its day, as from and to
// do in the rest of the API.
func parseDatetime(v string) (from, to photo.Date, err error) {
	a, b, interval := strings.Cut(v, "/")
	if !interval {
		d, err := cql.ParseInstant(v)
		if err != nil {
			return from, to, badParam("datetime", "%q: %v, or an interval start/end with .. for an open end", v, err)
		}
		return d, d, nil
	}
	for _, end := range []struct {
		text string
		dst  *photo.Date
	}{{a, &from}, {b, &to}} {
		if end.text == ".." || end.text == "" {
			continue
		}
		d, err := cql.ParseInstant(end.text)
		if err != nil {
			return from, to, badParam("datetime", "%q: %v", end.text, err)
		}
		*end.dst = d
	}
	if !from.IsZero() && !to.IsZero() {
		first, _ := from.Span()
		_, last := to.Span()
		if first > last {
			return from, to, badParam("datetime", "%q ends before it starts", v)
		}
	}
	return from, to, nil
}

// pageLink is the items URL with the request's query at another offset.
func (s *Server) pageLink(r *http.Request, format string, offset, limit int) string {
	q := r.URL.Query()
	q.Set("offset", strconv.Itoa(offset))
	q.Set("limit", strconv.Itoa(limit))
	q.Set("f", format)
	return s.base(r) + r.URL.Path + "?" + q.Encode()
}

// itemsLinks are an items page's links: self, alternate, prev and next
// (while features are left), and the collection.
func (s *Server) itemsLinks(r *http.Request, format, typ, collection string, offset, limit, returned, matched int) []ogcLink {
	links := s.selfLinks(r, format, typ)
	if offset > 0 {
		links = append(links, ogcLink{Href: s.pageLink(r, "json", max(0, offset-limit), limit), Rel: "prev", Type: typ, Title: "The previous page"})
	}
	if returned == limit && offset+returned < matched {
		links = append(links, ogcLink{Href: s.pageLink(r, "json", offset+returned, limit), Rel: "next", Type: typ, Title: "The next page"})
	}
	if format == "html" {
		for i := range links[2:] {
			links[2+i].Href = strings.Replace(links[2+i].Href, "f=json", "f=html", 1)
			links[2+i].Type = mediaHTML
		}
	}
	return append(links, ogcLink{Href: s.base(r) + s.url("ogc.collection", "collection", collection), Rel: "collection", Type: mediaJSON, Title: "The collection"})
}

// photoItems serves the photos the query selects, a page at a time:
// numberMatched counts them all, numberReturned those on the page, and
// next and prev page through them in a stable order (import order, or
// by date then id with sortby), so that paging never repeats or skips a
// photo while photos are being added.
func (s *Server) photoItems(w http.ResponseWriter, r *http.Request) {
	format, done := s.ogcStart(w, r, itemsParams, photoItemsParams, queryableNames(photoQueryables))
	if done {
		return
	}
	q := r.URL.Query()
	f, err := s.photoItemsFilter(q)
	var hits bool
	if err == nil {
		hits, err = resultHits(q)
	}
	if err != nil {
		s.error(w, r, err)
		return
	}
	if s.checkETag(w, r, "ogc.items") {
		return
	}
	matched, err := s.archive.DB.CountPhotos(r.Context(), f)
	if err != nil {
		s.error(w, r, err)
		return
	}
	if format == "html" {
		s.photoItemsPage(w, r, f, matched)
		return
	}
	w.Header().Set("Content-Type", mediaGeoJSON)
	if r.Method == http.MethodHead {
		w.WriteHeader(http.StatusOK)
		return
	}
	head := `{"type":"FeatureCollection","numberMatched":` + strconv.Itoa(matched) +
		`,"timeStamp":"` + time.Now().UTC().Format(time.RFC3339) + `","features":[` + "\n"
	tail := func(returned int) string {
		links, _ := marshalJSON(s.itemsLinks(r, "json", mediaGeoJSON, "photos", f.Offset, f.Limit, returned, matched))
		return "\n],\"numberReturned\":" + strconv.Itoa(returned) + `,"links":` + strings.TrimSpace(string(links)) + "}\n"
	}
	if hits {
		w.Write([]byte(head + tail(0)))
		return
	}
	s.streamFeatures(w, r, f, head, ",\n", tail, func(b []byte, base string, ft *store.Feature) []byte {
		return appendFeature(b, ft, s.links(base, ft))
	})
}

// photoItemsPage shows a page of photos as a table.
func (s *Server) photoItemsPage(w http.ResponseWriter, r *http.Request, f photo.Filter, matched int) {
	m := views.OGC{Heading: "Photos", Description: "Photos of this selection, " + strconv.Itoa(f.Offset+1) + " onwards.",
		Columns: []string{"Date", "Place", "Credit", "Caption"}}
	err := s.archive.DB.EachFeature(r.Context(), f, func(ft *store.Feature) error {
		credit := ft.Photographer
		if ft.Agency != "" {
			credit = strings.TrimPrefix(credit+" / "+ft.Agency, " / ")
		}
		m.Items = append(m.Items, views.OGCItem{ID: ft.ID, URL: s.base(r) + s.url("ogc.item", "collection", "photos", "id", ft.ID) + "?f=html",
			Cells: []string{longDate(ft.Date), ft.PlaceName, credit, ft.Caption}})
		return nil
	})
	if err != nil {
		s.error(w, r, err)
		return
	}
	m.Facts = []views.Fact{{Label: "Matched", Value: strconv.Itoa(matched)}, {Label: "On this page", Value: strconv.Itoa(len(m.Items))}}
	m.Links = pageLinks(s.itemsLinks(r, "html", mediaGeoJSON, "photos", f.Offset, f.Limit, len(m.Items), matched))
	s.ogcPage(w, r, m)
}

// photoItem serves one photo as a GeoJSON feature with its links.
func (s *Server) photoItem(w http.ResponseWriter, r *http.Request) {
	format, done := s.ogcStart(w, r, []string{"crs"})
	if done {
		return
	}
	if err := checkCRS(r.URL.Query()); err != nil {
		s.error(w, r, err)
		return
	}
	id := mux.Vars(r)["id"]
	var feature []byte
	err := s.archive.DB.EachFeature(r.Context(), photo.Filter{Conds: []photo.Cond{{Property: "id", Op: "=", Value: id}}, Limit: 1},
		func(ft *store.Feature) error {
			feature = appendFeature(nil, ft, s.links(s.base(r), ft))
			return nil
		})
	if err == nil && feature == nil {
		err = notFound("no photo %q", id)
	}
	if err != nil {
		s.error(w, r, err)
		return
	}
	if format == "html" {
		http.Redirect(w, r, s.url("photo", "id", id), http.StatusSeeOther)
		return
	}
	links := append(s.selfLinks(r, format, mediaGeoJSON),
		ogcLink{Href: s.base(r) + s.url("ogc.collection", "collection", "photos"), Rel: "collection", Type: mediaJSON, Title: "The collection"})
	lb, _ := marshalJSON(links)
	w.Header().Set("Content-Type", mediaGeoJSON)
	w.Write(append(append(append(feature[:len(feature)-1], `,"links":`...), bytes.TrimSpace(lb)...), "}\n"...))
}

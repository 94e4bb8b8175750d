package ogcapi

import (
	"net/http"
	"strconv"

	"github.com/syriamap/syriamap/internal/http/cql"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/views"
)

// The OpenAPI 3.0 document of /ogc. Each collection's items have a path
// of their own, with every query parameter listed: GDAL and QGIS read
// that list to know which of a layer's attribute filters the server can
// apply (name=value), and apply the rest themselves.

type oaParam = map[string]any

func queryParam(name, description string, schema map[string]any) oaParam {
	return oaParam{"name": name, "in": "query", "required": false, "description": description, "schema": schema, "style": "form", "explode": false}
}

func pathParam(name, description string) oaParam {
	return oaParam{"name": name, "in": "path", "required": true, "description": description, "schema": map[string]any{"type": "string"}}
}

var (
	str    = map[string]any{"type": "string"}
	fParam = queryParam("f", "The format: json (the default for clients that do not ask for text/html) or html.",
		map[string]any{"type": "string", "enum": []string{"json", "html"}})
	limitParam = queryParam("limit", "How many items a page holds: "+strconv.Itoa(DefaultLimit)+" by default, at most "+
		strconv.Itoa(MaxLimit)+". A larger limit is refused with 400 naming limit (never silently cut); page with the next links.",
		map[string]any{"type": "integer", "minimum": 1, "maximum": MaxLimit, "default": DefaultLimit})
	offsetParam = queryParam("offset", "How many items to skip; the next and prev links carry it.",
		map[string]any{"type": "integer", "minimum": 0, "default": 0})
	bboxParam = queryParam("bbox", "minLon,minLat,maxLon,maxLat in CRS84: items whose point is inside.",
		map[string]any{"type": "array", "minItems": 4, "maxItems": 4, "items": map[string]any{"type": "number"}})
	crsParam = queryParam("crs", "Only "+CRS84+" is offered.", map[string]any{"type": "string", "format": "uri", "enum": []string{CRS84}})
	bboxCRS  = queryParam("bbox-crs", "Only "+CRS84+" is offered.", map[string]any{"type": "string", "format": "uri", "enum": []string{CRS84}})
	hitsParm = queryParam("resultType", "hits: the count (numberMatched) without the features.",
		map[string]any{"type": "string", "enum": []string{"results", "hits"}})
)

func oaResponses(media string) map[string]any {
	return map[string]any{
		"200": map[string]any{"description": "The resource.", "content": map[string]any{media: map[string]any{}, mediaHTML: map[string]any{}}},
		"400": map[string]any{"description": "A bad parameter: the JSON body names it ({\"error\": …, \"parameter\": …})."},
		"404": map[string]any{"description": "No such resource."},
		"503": map[string]any{"description": "The archive is busy; retry after the Retry-After header's seconds."},
	}
}

func oaGet(summary, media string, params ...oaParam) map[string]any {
	return map[string]any{"get": map[string]any{"summary": summary, "parameters": append(params, fParam), "responses": oaResponses(media)}}
}

// photoParams are the photos' items parameters beyond paging.
func photoParams() []oaParam {
	ps := []oaParam{
		queryParam("datetime", "An instant (2016-03-05) or an interval (2016-01-01/2016-12-31, 2016-01-01/.., ../2013-06-30; "+
			"times of day are ignored: photos are dated to the day). A photo is selected when the day, month or year its "+
			"caption gives overlaps it.", str),
		queryParam("q", "Full-text search in the captions: words, \"phrases\", OR, NOT, prefix*.", str),
		queryParam("place", "A gazetteer place's id (any of its source ids); may repeat.", str),
		queryParam("min_confidence", "The geocoder's confidence at least this, 0 to 1.", map[string]any{"type": "number", "minimum": 0, "maximum": 1}),
		queryParam("unplaced", "true: only the photos no place was found for.", map[string]any{"type": "boolean"}),
		queryParam("verified", "1: only the photos whose placement a second editor confirmed without seeing the first answer (or a third decided).", map[string]any{"type": "boolean"}),
		queryParam("reuse", "conflict: only the photos whose picture is the same frame as another photo's under a caption that disagrees "+
			"(another place, date or photographer); copy: the same frame, captions agreeing.", map[string]any{"type": "string", "enum": []string{"conflict", "copy"}}),
		queryParam("event", "any: only the photos editors linked to a conflict event; ucdp-ged:ID: those linked to that event.", str),
		queryParam("from", "The window's first day (YYYY, YYYY-MM or YYYY-MM-DD); an alternative to datetime.", str),
		queryParam("to", "The window's last day; an alternative to datetime.", str),
		queryParam("sortby", "date (oldest first) or -date (newest first), then by id; by default the order photos were imported in.",
			map[string]any{"type": "string", "enum": []string{"date", "+date", "-date"}}),
		queryParam("filter", "CQL2 text, the part an index answers: comparisons (= <> < <= > >=) of a queryable with a value, "+
			"BETWEEN, T_INTERSECTS(date, INTERVAL(…)), joined by AND; e.g. agency = 'AFP' AND date >= DATE('2016-01-01'). "+
			"OR, NOT, LIKE and IN are refused with 400.", str),
		queryParam("cursor", "Where the next link goes on from: the last photo of the page before (paging by key, so that photos added "+
			"or changed meanwhile are neither repeated nor skipped). Given with it, offset only says where the page is.",
			map[string]any{"type": "integer", "minimum": 1}),
		queryParam("filter-lang", "cql2-text, the only one read.", map[string]any{"type": "string", "enum": []string{"cql2-text"}}),
		queryParam("filter-crs", "Only "+CRS84+".", map[string]any{"type": "string", "enum": []string{CRS84}}),
	}
	for _, q := range photoQueryables {
		d := q.title + " equals this."
		switch q.name {
		case "agency", "photographer", "place_id", "governorate":
			d = q.title + ": any of the values given (the parameter may repeat)."
		}
		ps = append(ps, queryParam(q.name, d, schemaOf(q)))
	}
	return ps
}

func placeParams() []oaParam {
	var ps []oaParam
	for _, q := range placeQueryables {
		ps = append(ps, queryParam(q.name, q.title+": any of the values given (the parameter may repeat).", schemaOf(q)))
	}
	return ps
}

func eventParams() []oaParam {
	ps := []oaParam{
		queryParam("datetime", "An instant (2016-03-05) or an interval (2016-01-01/2016-12-31, 2016-01-01/..): the events whose days meet it.", str)}
	for _, q := range eventQueryables {
		ps = append(ps, queryParam(q.name, q.title+".", schemaOf(q)))
	}
	return ps
}

// openAPI is the API's OpenAPI 3.0 document.
func (s *API) openAPI(r *http.Request) map[string]any {
	paths := map[string]any{
		"/":            oaGet("The landing page", mediaJSON),
		"/conformance": oaGet("The requirement classes the API conforms to", mediaJSON),
		"/api":         oaGet("This document", mediaOpenAPI),
		"/collections": oaGet("The collections: photos, places and events", mediaJSON),
		"/collections/{collectionId}": oaGet("A collection, with its extent", mediaJSON,
			pathParam("collectionId", "photos, places or events")),
		"/collections/{collectionId}/queryables": oaGet("What the collection's items can be filtered by (JSON Schema)", mediaSchema,
			pathParam("collectionId", "photos, places or events")),
	}
	for _, c := range []struct {
		id     string
		params []oaParam
	}{{"photos", photoParams()}, {"places", placeParams()}, {"events", eventParams()}} {
		items := append([]oaParam{limitParam, offsetParam, bboxParam, bboxCRS, crsParam, hitsParm}, c.params...)
		paths["/collections/"+c.id+"/items"] = oaGet("The "+c.id+", a page at a time (GeoJSON FeatureCollection with numberMatched, "+
			"numberReturned and next/prev links)", mediaGeoJSON, items...)
		paths["/collections/"+c.id+"/items/{featureId}"] = oaGet("One of the "+c.id, mediaGeoJSON, pathParam("featureId", "The item's id"), crsParam)
	}
	return map[string]any{
		"openapi": "3.0.3",
		"info": map[string]any{"title": "syriamap OGC API – Features", "version": "1.0",
			"description": "News photos of the Syrian war placed by their captions, and the gazetteer of places, as OGC API – Features " +
				"(Part 1 Core, GeoJSON, HTML, OpenAPI 3.0; Part 3 queryables). Coordinates are CRS84.",
			"license": map[string]any{"name": "Photos: their agencies' terms; gazetteer: see /about"}},
		"servers": []map[string]any{{"url": s.base(r) + s.url("ogc")}},
		"paths":   paths,
	}
}

// ogcAPI serves the OpenAPI document, or as a page its paths.
func (s *API) ogcAPI(w http.ResponseWriter, r *http.Request) {
	format, done := s.ogcStart(w, r)
	if done {
		return
	}
	if format == "html" {
		m := views.OGC{Heading: "API definition", Description: "The resources of this OGC API – Features; the OpenAPI 3.0 document is at this address as JSON."}
		base := s.base(r) + s.url("ogc")
		for _, p := range []struct{ path, what string }{
			{"", "Landing page"}, {"/conformance", "Conformance classes"}, {"/collections", "Collections"},
			{"/collections/photos", "Photos: extent"}, {"/collections/photos/items", "Photos: items"},
			{"/collections/photos/queryables", "Photos: queryables"}, {"/collections/places", "Places: extent"},
			{"/collections/places/items", "Places: items"}, {"/collections/places/queryables", "Places: queryables"},
		} {
			l := i18n.From(r.Context())
			m.Links = append(m.Links, views.Link{Label: text(l, p.what) + " " + l.Isolate("("+s.url("ogc")+p.path+")"), URL: base + p.path + "?f=html"})
		}
		for _, q := range photoQueryables {
			typ := map[cql.Type]string{cql.String: "text", cql.Number: "number", cql.Date: "date"}[q.typ]
			m.Facts = append(m.Facts, views.Fact{Label: "photos: " + q.name + " (" + text(i18n.From(r.Context()), typ) + ")", Value: q.title})
		}
		s.ogcPage(w, r, m)
		return
	}
	s.writeJSON(w, r, mediaOpenAPI, s.openAPI(r))
}

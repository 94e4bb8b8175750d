package ogcapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/encoding/mvt"
	"github.com/paulmach/orb/maptile"
	"github.com/syriamap/syriamap/internal/http/ogcapi"
)

// Conformance tests of /ogc, one per requirement class claimed in
// /ogc/conformance (the OGC's own test suite needs a Java stack), then a
// QGIS-style session that only follows links, and the vector tiles.

type ogcDoc struct {
	Links []ogcapi.Link `json:"links"`
	// items
	Type           string            `json:"type"`
	NumberMatched  *int              `json:"numberMatched"`
	NumberReturned *int              `json:"numberReturned"`
	TimeStamp      string            `json:"timeStamp"`
	Features       []json.RawMessage `json:"features"`
	// conformance, collections
	ConformsTo  []string         `json:"conformsTo"`
	Collections []map[string]any `json:"collections"`
}

// getJSON fetches path (a path or a full URL of ts), requires status and
// content type, and decodes the body.
func getJSON(t *testing.T, ts *httptest.Server, path string, status int, contentType string, v any) {
	t.Helper()
	path = strings.TrimPrefix(path, ts.URL)
	resp, body := get(t, ts, path)
	if resp.StatusCode != status {
		t.Fatalf("%s: %d, want %d: %s", path, resp.StatusCode, status, body)
	}
	if ct := resp.Header.Get("Content-Type"); contentType != "" && !strings.HasPrefix(ct, contentType) {
		t.Fatalf("%s: Content-Type %q, want %q", path, ct, contentType)
	}
	if v != nil {
		if err := json.Unmarshal(body, v); err != nil {
			t.Fatalf("%s: %v\n%s", path, err, body)
		}
	}
}

func linkOf(links []ogcapi.Link, rel, typ string) *ogcapi.Link {
	for i, l := range links {
		if l.Rel == rel && (typ == "" || l.Type == typ) {
			return &links[i]
		}
	}
	return nil
}

func featureID(t *testing.T, raw json.RawMessage) string {
	var f struct {
		ID any `json:"id"`
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	s, _ := f.ID.(string)
	return s
}

// apiIDs are the ids /api/photos.geojson gives for a query.
func apiIDs(t *testing.T, ts *httptest.Server, query string) []string {
	t.Helper()
	var fc struct{ Features []json.RawMessage }
	getJSON(t, ts, "/api/photos.geojson?"+query, 200, "application/geo+json", &fc)
	var ids []string
	for _, f := range fc.Features {
		ids = append(ids, featureID(t, f))
	}
	slices.Sort(ids)
	return ids
}

// ogcIDs follows an items URL and its next links to the end, requiring
// each page's counts to add up, and returns the ids in the order given.
func ogcIDs(t *testing.T, ts *httptest.Server, items string) (ids []string, matched int) {
	t.Helper()
	for next, pages := items, 0; next != ""; pages++ {
		var page ogcDoc
		getJSON(t, ts, next, 200, "application/geo+json", &page)
		if page.Type != "FeatureCollection" || page.NumberMatched == nil || page.NumberReturned == nil || page.TimeStamp == "" {
			t.Fatalf("%s: not an items page: %+v", next, page)
		}
		if *page.NumberReturned != len(page.Features) {
			t.Fatalf("%s: numberReturned %d for %d features", next, *page.NumberReturned, len(page.Features))
		}
		matched = *page.NumberMatched
		for _, f := range page.Features {
			ids = append(ids, featureID(t, f))
		}
		next = ""
		if l := linkOf(page.Links, "next", "application/geo+json"); l != nil {
			next = l.Href
		}
		if pages > 100_000 {
			t.Fatal("the next links do not end")
		}
	}
	return ids, matched
}

// TestOGCCore is the Core class: the landing page links the API
// definition, the conformance classes and the collections; the
// collections describe their extent; items page with next links;
// one item by id, and 404 for none.
func TestOGCCore(t *testing.T) {
	_, ts, _ := newTestServer(t)
	var landing ogcDoc
	getJSON(t, ts, "/ogc", 200, "application/json", &landing)
	for _, rel := range []string{"self", "alternate", "service-desc", "conformance", "data"} {
		if linkOf(landing.Links, rel, "") == nil {
			t.Errorf("the landing page has no %s link: %+v", rel, landing.Links)
		}
	}
	var conf ogcDoc
	getJSON(t, ts, linkOf(landing.Links, "conformance", "").Href, 200, "application/json", &conf)
	if !slices.Equal(conf.ConformsTo, ogcapi.ConformsTo) {
		t.Errorf("conformsTo = %v", conf.ConformsTo)
	}
	var cols ogcDoc
	getJSON(t, ts, linkOf(landing.Links, "data", "").Href, 200, "application/json", &cols)
	if len(cols.Collections) != 3 || cols.Collections[0]["id"] != "photos" || cols.Collections[1]["id"] != "places" || cols.Collections[2]["id"] != "events" {
		t.Fatalf("collections = %v", cols.Collections)
	}
	var photos ogcapi.CollectionInfo
	getJSON(t, ts, "/ogc/collections/photos", 200, "application/json", &photos)
	bb := photos.Extent.Spatial.BBox[0]
	if photos.Extent.Spatial.CRS != ogcapi.CRS84 || bb[0] < 35 || bb[2] > 43 || bb[0] >= bb[2] || bb[1] >= bb[3] {
		t.Errorf("photos' spatial extent = %+v", photos.Extent.Spatial)
	}
	if iv := photos.Extent.Temporal.Interval[0]; iv[0] == nil || !strings.HasPrefix(*iv[0], "201") || *iv[1] < *iv[0] {
		t.Errorf("photos' temporal extent = %v", iv)
	}
	if !slices.Equal(photos.CRS, []string{ogcapi.CRS84}) || photos.ItemType != "feature" {
		t.Errorf("photos: crs %v, itemType %q", photos.CRS, photos.ItemType)
	}
	all := apiIDs(t, ts, "")
	ids, matched := ogcIDs(t, ts, linkOf(photos.Links, "items", "application/geo+json").Href+"?limit=4")
	if matched != len(all) || len(ids) != len(all) {
		t.Fatalf("paged %d ids, numberMatched %d; the API has %d", len(ids), matched, len(all))
	}
	one := ids[2]
	var item struct {
		ID         string         `json:"id"`
		Properties map[string]any `json:"properties"`
		Links      []ogcapi.Link  `json:"links"`
	}
	getJSON(t, ts, "/ogc/collections/photos/items/"+one, 200, "application/geo+json", &item)
	if item.ID != one || item.Properties["caption"] == nil || linkOf(item.Links, "self", "") == nil || linkOf(item.Links, "collection", "") == nil {
		t.Errorf("item %s = %+v", one, item)
	}
	getJSON(t, ts, "/ogc/collections/photos/items/no-such-photo", 404, "application/json", nil)
	getJSON(t, ts, "/ogc/collections/roads", 404, "application/json", nil)
	getJSON(t, ts, "/ogc/collections/roads/items", 404, "application/json", nil)
}

// TestOGCQGISSession is what QGIS does with "Add OGC API – Features
// layer": it knows only the landing page's address and follows links:
// data → the collections → photos' items (GeoJSON) with its page size
// and the view's box → next, to the end; each photo in the box once.
func TestOGCQGISSession(t *testing.T) {
	_, ts, _ := newTestServer(t)
	var landing, cols ogcDoc
	getJSON(t, ts, ts.URL+"/ogc", 200, "application/json", &landing)
	getJSON(t, ts, linkOf(landing.Links, "data", "application/json").Href, 200, "application/json", &cols)
	var items string
	for _, c := range cols.Collections {
		if c["id"] != "photos" {
			continue
		}
		raw, _ := json.Marshal(c["links"])
		var links []ogcapi.Link
		json.Unmarshal(raw, &links)
		if l := linkOf(links, "items", "application/geo+json"); l != nil {
			items = l.Href
		}
	}
	if items == "" {
		t.Fatalf("no GeoJSON items link for photos in %v", cols.Collections)
	}
	ids, matched := ogcIDs(t, ts, items+"?limit=2&bbox=35.5,32.5,42.5,37.5")
	want := apiIDs(t, ts, "bbox=35.5,32.5,42.5,37.5")
	slices.Sort(ids)
	if len(want) < 10 || !slices.Equal(ids, want) || matched != len(want) {
		t.Errorf("QGIS paged %d photos (numberMatched %d); the box holds %d", len(ids), matched, len(want))
	}
}

// TestOGCItemsParameters covers bbox, datetime (instants, closed and
// open intervals, GDAL's trailing T), the API's filters, sortby and
// limit: each gives exactly what /api/photos.geojson gives for the same
// box and window.
func TestOGCItemsParameters(t *testing.T) {
	_, ts, _ := newTestServer(t)
	for _, c := range []struct{ ogc, api string }{
		{"bbox=36,35,38,37", "bbox=36,35,38,37"},
		{"datetime=2016-01-01/2016-12-31", "from=2016-01-01&to=2016-12-31"},
		{"datetime=2016-01-01T%2F2016-12-31T", "from=2016-01-01&to=2016-12-31"},
		{"datetime=2016-03-01T00:00:00Z/2016-06-30T23:59:59Z", "from=2016-03-01&to=2016-06-30"},
		{"datetime=2016-01-01/..", "from=2016-01-01"},
		{"datetime=../2014-12-31", "to=2014-12-31"},
		{"datetime=/2014-12-31", "to=2014-12-31"},
		{"datetime=2016-09-19", "from=2016-09-19&to=2016-09-19"},
		{"datetime=2016-03", "from=2016-03&to=2016-03"},
		{"datetime=../..", ""},
		{"bbox=36,35,38,37&datetime=2015-01-01/2016-12-31", "bbox=36,35,38,37&from=2015-01-01&to=2016-12-31"},
		{"agency=Reuters", "agency=Reuters"},
		{"agency=Reuters&agency=AFP", "agency=Reuters&agency=AFP"},
		{"place_id=gn:169389", "place=gn:169389"},
		{"governorate=Idlib", "governorate=Idlib"},
		{"q=children", "q=children"},
		{"min_confidence=0.9", "min_confidence=0.9"},
		{"bbox-crs=" + url.QueryEscape(ogcapi.CRS84) + "&bbox=36,35,38,37", "bbox=36,35,38,37"},
	} {
		want := apiIDs(t, ts, c.api)
		got, matched := ogcIDs(t, ts, "/ogc/collections/photos/items?limit=3&"+c.ogc)
		slices.Sort(got)
		if !slices.Equal(got, want) || matched != len(want) {
			t.Errorf("%s: %d items (numberMatched %d), /api?%s gives %d", c.ogc, len(got), matched, c.api, len(want))
		}
	}
	// sortby: by date, the undated last, either way.
	for _, c := range []struct {
		sortby string
		asc    bool
	}{{"date", true}, {"%2Bdate", true}, {"-date", false}} {
		var page struct {
			Features []struct {
				Properties struct{ Date *string }
			}
		}
		getJSON(t, ts, "/ogc/collections/photos/items?sortby="+c.sortby, 200, "", &page)
		var dates []string
		for _, f := range page.Features {
			if f.Properties.Date != nil {
				dates = append(dates, *f.Properties.Date)
			}
		}
		sorted := slices.IsSorted(dates)
		if !c.asc {
			slices.Reverse(dates)
			sorted = slices.IsSorted(dates)
		}
		if len(dates) < 10 || !sorted {
			t.Errorf("sortby=%s: dates %v", c.sortby, dates)
		}
	}
}

// TestOGCLimits is "never a silent truncation": the default and maximum
// limit as the API definition documents them, a larger one a 400 naming
// limit; and each other bad parameter a 400 naming it.
func TestOGCLimits(t *testing.T) {
	_, ts, _ := newTestServer(t)
	var page ogcDoc
	getJSON(t, ts, "/ogc/collections/places/items", 200, "application/geo+json", &page)
	if len(page.Features) != ogcapi.DefaultLimit || linkOf(page.Links, "next", "") == nil {
		t.Errorf("default page: %d features, links %v", len(page.Features), page.Links)
	}
	getJSON(t, ts, "/ogc/collections/places/items?limit="+strconv.Itoa(ogcapi.MaxLimit), 200, "", &page)
	if len(page.Features) != ogcapi.MaxLimit {
		t.Errorf("limit=%d gave %d", ogcapi.MaxLimit, len(page.Features))
	}
	var api map[string]any
	getJSON(t, ts, "/ogc/api", 200, "application/vnd.oai.openapi+json", &api)
	var limit map[string]any
	for _, p := range api["paths"].(map[string]any)["/collections/photos/items"].(map[string]any)["get"].(map[string]any)["parameters"].([]any) {
		if p := p.(map[string]any); p["name"] == "limit" {
			limit = p
		}
	}
	if sch := limit["schema"].(map[string]any); sch["maximum"] != float64(ogcapi.MaxLimit) || sch["default"] != float64(ogcapi.DefaultLimit) ||
		!strings.Contains(limit["description"].(string), "400") {
		t.Errorf("the API definition's limit: %v", limit)
	}
	for _, c := range []struct{ query, param string }{
		{"limit=" + strconv.Itoa(ogcapi.MaxLimit+1), "limit"},
		{"limit=0", "limit"},
		{"offset=-1", "offset"},
		{"datetime=yesterday", "datetime"},
		{"datetime=2017-01-01/2016-01-01", "datetime"},
		{"datetime=2016&from=2015", "datetime"},
		{"bbox=1,2,3", "bbox"},
		{"sortby=caption", "sortby"},
		{"crs=EPSG:3857", "crs"},
		{"resultType=all", "resultType"},
		{"filter-lang=cql2-json&filter=x", "filter-lang"},
		{"filter=agency%20LIKE%20%27A%25%27", "filter"},
		{"confidence=high", "confidence"},
		{"agencyy=AFP", "agencyy"},
		{"f=xml", "f"},
	} {
		var e struct{ Error, Parameter string }
		getJSON(t, ts, "/ogc/collections/photos/items?"+c.query, 400, "application/json", &e)
		if e.Parameter != c.param || e.Error == "" {
			t.Errorf("%s: %+v, want a 400 naming %s", c.query, e, c.param)
		}
	}
}

// TestOGCGeoJSON is the GeoJSON class: items and item as
// application/geo+json, every feature a Feature with a Point or null.
func TestOGCGeoJSON(t *testing.T) {
	_, ts, _ := newTestServer(t)
	var page ogcDoc
	getJSON(t, ts, "/ogc/collections/photos/items?limit=100", 200, "application/geo+json", &page)
	nulls := 0
	for _, raw := range page.Features {
		var f struct {
			Type     string
			Geometry *struct {
				Type        string
				Coordinates []float64
			}
		}
		json.Unmarshal(raw, &f)
		switch {
		case f.Type != "Feature":
			t.Errorf("not a Feature: %s", raw)
		case f.Geometry == nil:
			nulls++
		case f.Geometry.Type != "Point" || len(f.Geometry.Coordinates) != 2 || f.Geometry.Coordinates[0] < 30:
			t.Errorf("not a [lon, lat] Point: %s", raw)
		}
	}
	if nulls != 1 {
		t.Errorf("%d unplaced photos with a null geometry, want 1", nulls)
	}
	getJSON(t, ts, "/ogc/collections/places/items/gn:169389", 200, "application/geo+json", nil)
	// A web map on another origin may read the features and the tiles.
	for _, path := range []string{"/ogc/collections/photos/items", "/tiles/photos/0/0/0.mvt", "/tiles/photos.json"} {
		if resp, _ := get(t, ts, path); resp.Header.Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("%s: no Access-Control-Allow-Origin: *", path)
		}
	}
	if resp, _ := get(t, ts, "/api/photos/x/history"); resp.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Error("the review API is open to other origins")
	}
}

// TestOGCHTML is the HTML class: every resource as a page, by f=html or
// by a browser's Accept, with its links; and JSON by f=json whatever
// Accept says.
func TestOGCHTML(t *testing.T) {
	_, ts, _ := newTestServer(t)
	browser := "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
	for _, path := range []string{"/ogc", "/ogc/conformance", "/ogc/api", "/ogc/collections", "/ogc/collections/photos",
		"/ogc/collections/photos/queryables", "/ogc/collections/photos/items?limit=5", "/ogc/collections/places/items?limit=5&name=Aleppo"} {
		for _, req := range [][]string{{path + sep(path) + "f=html"}, {path, "Accept", browser}} {
			resp, body := get(t, ts, req[0], req[1:]...)
			if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") ||
				!strings.Contains(string(body), `data-testid="ogc"`) {
				t.Errorf("%v: %d %s", req, resp.StatusCode, resp.Header.Get("Content-Type"))
			}
		}
		resp, _ := get(t, ts, path+sep(path)+"f=json", "Accept", browser)
		if ct := resp.Header.Get("Content-Type"); !strings.Contains(ct, "json") {
			t.Errorf("%s?f=json: %s", path, ct)
		}
	}
	_, body := get(t, ts, "/ogc/collections/photos/items?f=html&limit=2")
	if n := strings.Count(string(body), "<tr>"); n != 3 || !strings.Contains(string(body), ">The next page (next)<") {
		t.Errorf("the items page has %d rows, or no next link", n)
	}
	resp, _ := get(t, ts, "/ogc/collections/photos/items/no-such?f=html")
	if resp.StatusCode != 404 {
		t.Errorf("a missing item's page: %d", resp.StatusCode)
	}
}

func sep(path string) string {
	if strings.Contains(path, "?") {
		return "&"
	}
	return "?"
}

// TestOGCOpenAPI is the OpenAPI 3.0 class: the document is linked as
// service-desc, is OpenAPI 3.0, and lists every path and every parameter
// the items take, which is what GDAL reads to send attribute filters.
func TestOGCOpenAPI(t *testing.T) {
	_, ts, _ := newTestServer(t)
	var api struct {
		OpenAPI string `json:"openapi"`
		Info    struct{ Title, Version string }
		Paths   map[string]map[string]struct {
			Parameters []struct{ Name, In string }
			Responses  map[string]any
		}
	}
	getJSON(t, ts, "/ogc/api", 200, "application/vnd.oai.openapi+json", &api)
	if !strings.HasPrefix(api.OpenAPI, "3.0.") || api.Info.Title == "" || api.Info.Version == "" {
		t.Errorf("openapi %q, info %+v", api.OpenAPI, api.Info)
	}
	for _, p := range []string{"/", "/conformance", "/api", "/collections", "/collections/{collectionId}",
		"/collections/{collectionId}/queryables", "/collections/photos/items", "/collections/photos/items/{featureId}",
		"/collections/places/items", "/collections/places/items/{featureId}"} {
		if op, ok := api.Paths[p]["get"]; !ok || op.Responses["200"] == nil {
			t.Errorf("the API definition lacks GET %s", p)
		}
	}
	listed := map[string]bool{}
	for _, p := range api.Paths["/collections/photos/items"]["get"].Parameters {
		listed[p.Name] = p.In == "query"
	}
	for _, name := range ogcapi.PhotoItemsParams() {
		if !listed[name] {
			t.Errorf("the photos' items parameter %s is not in the API definition", name)
		}
	}
}

// TestOGCQueryables is Part 3's queryables and queryables as query
// parameters: the schema lists them with types, each is accepted as
// name=value and selects what the filter parameter selects.
func TestOGCQueryables(t *testing.T) {
	_, ts, _ := newTestServer(t)
	var schema struct {
		Schema     string                    `json:"$schema"`
		Type       string                    `json:"type"`
		Properties map[string]map[string]any `json:"properties"`
	}
	getJSON(t, ts, "/ogc/collections/photos/queryables", 200, "application/schema+json", &schema)
	if schema.Type != "object" || !strings.Contains(schema.Schema, "json-schema.org") {
		t.Errorf("queryables: %+v", schema)
	}
	for _, name := range ogcapi.PhotoQueryables() {
		if schema.Properties[name] == nil {
			t.Errorf("queryable %s is not in the schema", name)
		}
	}
	if d := schema.Properties["date"]; d["format"] != "date" || schema.Properties["confidence"]["type"] != "number" {
		t.Errorf("date %v, confidence %v", d, schema.Properties["confidence"])
	}
	zamalka := sampleConfidence(t, "Zamalka")
	for _, c := range []struct{ param, filter string }{
		{"agency=Reuters", "agency = 'Reuters'"},
		{"place_name=Aleppo", "place_name = 'Aleppo'"},
		{"place_kind=town", "place_kind = 'town'"},
		{"country=SY", "country = 'SY'"},
		{"precision=exact", "precision = 'exact'"},
		{"mention=Zamalka", "mention = 'Zamalka'"},
		{"date=2016-09-19", "date = DATE('2016-09-19')"},
		{fmt.Sprintf("confidence=%g", zamalka), fmt.Sprintf("confidence = %g", zamalka)},
	} {
		byParam, m1 := ogcIDs(t, ts, "/ogc/collections/photos/items?"+c.param)
		byFilter, m2 := ogcIDs(t, ts, "/ogc/collections/photos/items?filter="+url.QueryEscape(c.filter))
		if len(byParam) == 0 || !slices.Equal(byParam, byFilter) || m1 != m2 {
			t.Errorf("%s gives %d, filter %q %d", c.param, len(byParam), c.filter, len(byFilter))
		}
	}
	// A filter of several comparisons, and a window in it, as the API's
	// own parameters select.
	got, _ := ogcIDs(t, ts, "/ogc/collections/photos/items?filter="+url.QueryEscape(
		"agency = 'Reuters' AND date BETWEEN DATE('2016-01-01') AND DATE('2016-12-31') AND confidence >= 0.5"))
	slices.Sort(got)
	if want := apiIDs(t, ts, "agency=Reuters&from=2016-01-01&to=2016-12-31&min_confidence=0.5"); len(want) < 3 || !slices.Equal(got, want) {
		t.Errorf("filter: %d photos, the API %d", len(got), len(want))
	}
	var places struct {
		Properties map[string]any `json:"properties"`
	}
	getJSON(t, ts, "/ogc/collections/places/queryables", 200, "", &places)
	for _, name := range ogcapi.PlaceQueryables() {
		if places.Properties[name] == nil {
			t.Errorf("places queryable %s missing", name)
		}
	}
}

// TestOGCPlaces covers the gazetteer collection: by name in any spelling,
// kind, governorate and box, paged, every place once.
func TestOGCPlaces(t *testing.T) {
	_, ts, a := newTestServer(t)
	ids, matched := ogcIDs(t, ts, "/ogc/collections/places/items?limit=5000")
	if matched != a.Gazetteer().Len() || len(ids) != matched {
		t.Fatalf("paged %d places of %d (gazetteer %d)", len(ids), matched, a.Gazetteer().Len())
	}
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			t.Fatalf("%s given twice", id)
		}
		seen[id] = true
	}
	var page struct {
		Features []struct {
			ID         string
			Properties map[string]any
		}
	}
	getJSON(t, ts, "/ogc/collections/places/items?name=Dayr%20az%20Zawr&kind=city", 200, "", &page)
	if len(page.Features) != 1 || page.Features[0].Properties["name"] != "Deir ez-Zor" {
		t.Errorf("name=Dayr az Zawr, kind=city: %+v", page.Features)
	}
	getJSON(t, ts, "/ogc/collections/places/items?kind=neighbourhood&governorate=Aleppo&bbox=37.0,36.1,37.3,36.3&limit=500", 200, "", &page)
	if len(page.Features) < 50 {
		t.Errorf("Aleppo's quarters: %d", len(page.Features))
	}
	for _, f := range page.Features {
		if f.Properties["kind"] != "neighbourhood" || f.Properties["governorate"] != "Aleppo" {
			t.Errorf("%s: %v", f.ID, f.Properties)
		}
	}
}

// TestPhotoTiles requires the clusters of the tiles that cover the
// archive to add up to its placed photos at every clustered zoom, single
// photos with their ids at the deepest zooms, the filters applied, and a
// TileJSON whose template carries them.
func TestPhotoTiles(t *testing.T) {
	_, ts, _ := newTestServer(t)
	placed := len(apiIDs(t, ts, "bbox=-180,-90,180,90"))
	placed2016 := len(apiIDs(t, ts, "bbox=-180,-90,180,90&from=2016&to=2016"))
	count := func(z int, query string) (n, singles int) {
		// The tiles over Syria and its borders (33–38° N, 35–43° E).
		x0, y0 := tileXY(35, 38, z)
		x1, y1 := tileXY(43, 32, z)
		for x := x0; x <= x1; x++ {
			for y := y0; y <= y1; y++ {
				resp, body := get(t, ts, "/tiles/photos/"+strconv.Itoa(z)+"/"+strconv.Itoa(x)+"/"+strconv.Itoa(y)+".mvt"+query)
				if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/vnd.mapbox-vector-tile" {
					t.Fatalf("tile %d/%d/%d: %d %s", z, x, y, resp.StatusCode, body)
				}
				layers, err := mvt.Unmarshal(body)
				if err != nil {
					t.Fatalf("tile %d/%d/%d: %v", z, x, y, err)
				}
				for _, l := range layers {
					if l.Name != ogcapi.TileLayer {
						t.Fatalf("layer %q", l.Name)
					}
					for _, f := range l.Features {
						n += int(f.Properties["count"].(float64))
						if f.Properties["id"] != nil {
							singles++
						}
					}
				}
			}
		}
		return n, singles
	}
	for _, z := range []int{4, 6, 9} {
		if n, _ := count(z, ""); n != placed {
			t.Errorf("zoom %d: the tiles count %d photos, the archive places %d", z, n, placed)
		}
	}
	if n, _ := count(6, "?from=2016&to=2016"); n != placed2016 {
		t.Errorf("zoom 6 in 2016: %d, want %d", n, placed2016)
	}
	if n, _ := count(6, "?datetime=2016-01-01/2016-12-31"); n != placed2016 {
		t.Errorf("zoom 6, datetime 2016: %d, want %d", n, placed2016)
	}
	// At the first single zoom, each photo is its own point, with its id.
	var one struct {
		ID       string
		Geometry struct{ Coordinates []float64 }
	}
	getJSON(t, ts, "/ogc/collections/photos/items/"+apiIDs(t, ts, "bbox=-180,-90,180,90")[0], 200, "", &one)
	x, y := tileXY(one.Geometry.Coordinates[0], one.Geometry.Coordinates[1], ogcapi.SingleZoom)
	resp, body := get(t, ts, "/tiles/photos/"+strconv.Itoa(ogcapi.SingleZoom)+"/"+strconv.Itoa(x)+"/"+strconv.Itoa(y)+".mvt")
	layers, _ := mvt.Unmarshal(body)
	found := false
	for _, f := range layers[0].Features {
		found = found || f.Properties["id"] == one.ID && f.Properties["count"] == 1.0
	}
	if resp.StatusCode != 200 || !found {
		t.Errorf("the zoom %d tile at %v lacks photo %s", ogcapi.SingleZoom, one.Geometry.Coordinates, one.ID)
	}
	for _, c := range []struct{ path, param string }{
		{"/tiles/photos/21/0/0.mvt", "z"}, {"/tiles/photos/3/8/0.mvt", "x"}, {"/tiles/photos/3/0/8.mvt", "y"},
		{"/tiles/photos/3/0/0.mvt?bbox=1,2,3,4", "bbox"}, {"/tiles/photos/3/0/0.mvt?from=x", "from"},
	} {
		var e struct{ Parameter string }
		getJSON(t, ts, c.path, 400, "application/json", &e)
		if e.Parameter != c.param {
			t.Errorf("%s: names %q, want %s", c.path, e.Parameter, c.param)
		}
	}
	var tj struct {
		TileJSON     string `json:"tilejson"`
		Tiles        []string
		VectorLayers []struct{ ID string } `json:"vector_layers"`
		Bounds       []float64
	}
	getJSON(t, ts, "/tiles/photos.json?agency=Reuters&from=2016", 200, "application/json", &tj)
	if tj.TileJSON != "3.0.0" || len(tj.Tiles) != 1 || !strings.HasSuffix(tj.Tiles[0], "/tiles/photos/{z}/{x}/{y}.mvt?agency=Reuters&from=2016") ||
		len(tj.VectorLayers) != 1 || tj.VectorLayers[0].ID != ogcapi.TileLayer || len(tj.Bounds) != 4 {
		t.Errorf("TileJSON: %+v", tj)
	}
}

// tileXY is the tile at zoom z holding lon, lat.
func tileXY(lon, lat float64, z int) (x, y int) {
	t := maptile.At(orb.Point{lon, lat}, maptile.Zoom(z))
	return int(t.X), int(t.Y)
}

// TestOGCPagingWhileImporting pages through the photos while others are
// imported between pages, dated before every photo already seen: in
// import order and by date either way, each photo there at the start is
// given once, and none twice.
func TestOGCPagingWhileImporting(t *testing.T) {
	for _, sortby := range []string{"", "date", "-date"} {
		t.Run("sortby="+sortby, func(t *testing.T) {
			_, ts, a := newTestServer(t)
			before := apiIDs(t, ts, "")
			seen := map[string]int{}
			next := "/ogc/collections/photos/items?limit=3&sortby=" + sortby
			for pages := 0; next != "" && pages < 100; pages++ {
				var page ogcDoc
				getJSON(t, ts, next, 200, "application/geo+json", &page)
				for _, f := range page.Features {
					seen[featureID(t, f)]++
				}
				next = ""
				if l := linkOf(page.Links, "next", ""); l != nil {
					next = l.Href
				}
				if pages >= 4 {
					continue // in import order, new photos come after the cursor for ever
				}
				// Three more photos, the oldest and the newest of all.
				path := filepath.Join(t.TempDir(), "more.txt")
				os.WriteFile(path, []byte(fmt.Sprintf("Fighters in Idlib, Syria, January %d, 2012. REUTERS/Page %d\n\n"+
					"Children in Homs, Syria, March %d, 2012. REUTERS/Page %d\n\nA market in Aleppo, Syria, May %d, 2019. AFP/Page %d\n",
					pages+1, pages, pages+1, pages, pages+1, pages)), 0o644)
				if _, err := a.ImportFile(context.Background(), path, "", nil); err != nil {
					t.Fatal(err)
				}
			}
			for _, id := range before {
				if seen[id] != 1 {
					t.Errorf("photo %s given %d times", id, seen[id])
				}
			}
			for id, n := range seen {
				if n > 1 {
					t.Errorf("photo %s given %d times", id, n)
				}
			}
		})
	}
}

// TestOGCOpenIntervals: an interval's open end is open, not today: a
// photo dated after today's date is in "2016-01-01/..", and not in
// "../2016-01-01".
func TestOGCOpenIntervals(t *testing.T) {
	_, ts, a := newTestServer(t)
	future := time.Now().AddDate(3, 0, 0)
	path := filepath.Join(t.TempDir(), "later.txt")
	writeFile(t, path, fmt.Sprintf("A boy flies a kite in Saraqib, Syria, %s. REUTERS/Name Surname\n", future.Format("January 2, 2006")))
	if _, err := a.ImportFile(context.Background(), path, "", nil); err != nil {
		t.Fatal(err)
	}
	later := apiIDs(t, ts, "q=kite")
	if len(later) != 1 {
		t.Fatalf("%d photos of the kite", len(later))
	}
	for _, c := range []struct {
		datetime string
		in       bool
	}{
		{"2016-01-01/..", true},
		{"2016-01-01/", true},
		{future.Format("2006-01-02") + "/..", true},
		{"../2016-01-01", false},
		{"../..", true},
	} {
		ids, _ := ogcIDs(t, ts, "/ogc/collections/photos/items?limit=10000&datetime="+url.QueryEscape(c.datetime))
		if slices.Contains(ids, later[0]) != c.in {
			t.Errorf("datetime=%s: the photo dated %s in it %v, want %v", c.datetime, future.Format("2006-01-02"), !c.in, c.in)
		}
	}
}

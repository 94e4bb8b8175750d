package ogcapi

// The items of OGC API – Features: the parameters every collection's
// items take, their links, and the photos' items, streamed as the API's
// downloads are.

import (
	"bytes"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"github.com/syriamap/syriamap/internal/http/cql"
	"github.com/syriamap/syriamap/internal/http/memindex"
	"github.com/syriamap/syriamap/internal/http/pagemodel"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/views"
)

// itemsParams are the parameters every items resource takes.
var itemsParams = []string{"limit", "offset", "bbox", "bbox-crs", "crs", "resultType"}

// photoItemsParams are the photos' further ones: the API's filters, the
// OGC datetime, sortby and filter.
var photoItemsParams = append([]string{"datetime", "sortby", "filter", "filter-lang", "filter-crs", "cursor"}, web.FilterParams...)

// paging reads limit and offset.
func paging(q url.Values) (limit, offset int, err error) {
	limit, err = web.IntParam(q, "limit", DefaultLimit, 1, MaxLimit)
	if err == nil {
		offset, err = web.IntParam(q, "offset", 0, 0, 1<<40)
	}
	return limit, offset, err
}

// checkCRS accepts CRS84, the one CRS offered, in crs and bbox-crs.
func checkCRS(q url.Values) error {
	for _, name := range []string{"crs", "bbox-crs"} {
		if v := q.Get(name); v != "" && v != CRS84 && v != "["+CRS84+"]" {
			return web.BadParam(name, "%q: only %s (longitude, latitude) is offered", v, CRS84)
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
		return false, web.BadParam("resultType", "%q: want results or hits", v)
	}
}

// photoItemsFilter reads the photos' items query into a filter: the API's
// own filters, datetime as the window, each queryable as an equality,
// filter in CQL2 text, sortby, limit and offset.
func (s *API) photoItemsFilter(q url.Values) (photo.Filter, error) {
	api := url.Values{}
	for _, k := range web.FilterParams {
		if v, ok := q[k]; ok {
			api[k] = v
		}
	}
	api["place"] = append(api["place"], q["place_id"]...)
	f, err := s.parseFilter(api)
	if err != nil {
		return f, err
	}
	if err := applyDatetime(q, &f); err != nil {
		return f, err
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
			return f, web.BadParam(qb.name, "%q is not a %s", v[0], map[cql.Type]string{cql.Number: "number", cql.Date: "date (YYYY-MM-DD)", cql.String: "value"}[qb.typ])
		}
		f.Conds = append(f.Conds, conds...)
	}
	if v := q.Get("filter"); v != "" {
		if lang := q.Get("filter-lang"); lang != "" && lang != "cql2-text" {
			return f, web.BadParam("filter-lang", "%q: only cql2-text is read", lang)
		}
		if err := checkCRS(url.Values{"crs": q["filter-crs"]}); err != nil {
			return f, web.BadParam("filter-crs", "only %s is offered", CRS84)
		}
		conds, err := cql.Parse(v, types)
		if err != nil {
			return f, err
		}
		f.Conds = append(f.Conds, conds...)
	}
	if v := q.Get("cursor"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 {
			return f, web.BadParam("cursor", "%q is not a cursor from a next link", v)
		}
		f.After = n
	}
	switch v := q.Get("sortby"); v {
	case "":
	case "date", "+date":
		f.Oldest = true
	case "-date":
		f.Newest = true
	default:
		return f, web.BadParam("sortby", "%q: want date or -date", v)
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

// applyDatetime sets f's window from OGC's datetime parameter, which
// stands instead of from and to.
func applyDatetime(q url.Values, f *photo.Filter) error {
	v := q.Get("datetime")
	if v == "" {
		return nil
	}
	if !f.From.IsZero() || !f.To.IsZero() {
		return web.BadParam("datetime", "give either datetime or from and to")
	}
	var err error
	f.From, f.To, err = parseDatetime(v)
	return err
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
			return from, to, web.BadParam("datetime", "%q: %v, or an interval start/end with .. for an open end", v, err)
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
			return from, to, web.BadParam("datetime", "%q: %v", end.text, err)
		}
		*end.dst = d
	}
	if !from.IsZero() && !to.IsZero() {
		first, _ := from.Span()
		_, last := to.Span()
		if first > last {
			return from, to, web.BadParam("datetime", "%q ends before it starts", v)
		}
	}
	return from, to, nil
}

// pageLink is the items URL with the request's query at another offset
// and, when not 0, after the photo whose Seq cursor is.
func (s *API) pageLink(r *http.Request, format string, offset, limit int, cursor int64) string {
	q := r.URL.Query()
	q.Set("offset", strconv.Itoa(offset))
	q.Del("cursor")
	if cursor != 0 {
		q.Set("cursor", strconv.FormatInt(cursor, 10))
	}
	q.Set("limit", strconv.Itoa(limit))
	q.Set("f", format)
	return s.base(r) + r.URL.Path + "?" + q.Encode()
}

// itemsLinks are an items page's links: self, alternate, prev and next
// (while features are left), and the collection. offset is the page's
// position; next carries cursor, the last item's key, when not 0 (prev
// goes back by offset: clients page forwards).
func (s *API) itemsLinks(r *http.Request, format, typ, collection string, offset, limit, returned, matched int, cursor int64) []Link {
	links := s.selfLinks(r, format, typ)
	if offset > 0 {
		links = append(links, Link{Href: s.pageLink(r, "json", max(0, offset-limit), limit, 0), Rel: "prev", Type: typ, Title: "The previous page"})
	}
	if returned == limit && offset+returned < matched {
		links = append(links, Link{Href: s.pageLink(r, "json", offset+returned, limit, cursor), Rel: "next", Type: typ, Title: "The next page"})
	}
	if format == "html" {
		for i := range links[2:] {
			links[2+i].Href = strings.Replace(links[2+i].Href, "f=json", "f=html", 1)
			links[2+i].Type = mediaHTML
		}
	}
	return append(links, Link{Href: s.base(r) + s.url("ogc.collection", "collection", collection), Rel: "collection", Type: mediaJSON, Title: "The collection"})
}

// photoItems serves the photos the query selects, a page at a time:
// numberMatched counts them all, numberReturned those on the page, and
// next and prev page through them in a stable order (import order, or
// by date then id with sortby), so that paging never repeats or skips a
// photo while photos are being added.
func (s *API) photoItems(w http.ResponseWriter, r *http.Request) {
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
	version, ok := s.version(w, r)
	if !ok {
		return
	}
	// With a cursor, the offset only says where the page is.
	position := f.Offset
	if f.After != 0 {
		f.Offset = 0
	}
	whole := f
	whole.After, whole.Limit, whole.Offset = 0, 0, 0
	// A GIS client pages through a layer a few thousand features a
	// time: the memory index, when it serves the filter, counts and
	// writes the pages (see memindex.go).
	var ix *memindex.Index
	if format == "json" && !hits && memindex.Indexable(f) && web.AcceptsGzip(r) {
		ix = s.memIndexAt(version)
	}
	var matched int
	var all []int32 // the index's positions of every photo the filter matches
	if ix != nil {
		all = ix.Select(whole)
		matched = len(all)
	} else if matched, err = s.db.CountPhotos(r.Context(), whole); err != nil {
		s.error(w, r, err)
		return
	}
	if format == "html" {
		s.photoItemsPage(w, r, f, position, matched)
		return
	}
	w.Header().Set("Content-Type", mediaGeoJSON)
	if r.Method == http.MethodHead {
		w.WriteHeader(http.StatusOK)
		return
	}
	head := `{"type":"FeatureCollection","numberMatched":` + strconv.Itoa(matched) +
		`,"timeStamp":"` + time.Now().UTC().Format(time.RFC3339) + `","features":[` + "\n"
	tail := func(returned int, last int64) string {
		// A page that holds fewer photos than the count says it should
		// lost some on the way: SQLite can skip the rows of a damaged
		// page without an error. The response is cut off rather than
		// finished as if whole (a GIS client then reports a failure
		// instead of a layer missing features).
		if f.After == 0 && !hits && returned < min(f.Limit, max(0, matched-position)) {
			s.log.Error("the archive is damaged: an items page came out short", "path", r.URL.Path, "query", r.URL.RawQuery,
				"returned", returned, "matched", matched, "offset", position)
			panic(http.ErrAbortHandler)
		}
		links, _ := web.MarshalJSON(s.itemsLinks(r, "json", mediaGeoJSON, "photos", position, f.Limit, returned, matched, last))
		return "\n],\"numberReturned\":" + strconv.Itoa(returned) + `,"links":` + strings.TrimSpace(string(links)) + "}\n"
	}
	if hits {
		w.Write([]byte(head + tail(0, 0)))
		return
	}
	if ix != nil {
		s.writeWindow(w, ix, ix.Page(all, f.After, f.Offset, f.Limit), head, tail)
		return
	}
	s.streamFeatures(w, r, f, head, ",\n", tail, func(b []byte, base string, ft *photo.Feature) []byte {
		return web.AppendFeature(b, ft, s.links(base, ft), s.publicGPS)
	})
}

// photoItemsPage shows a page of photos as a table.
func (s *API) photoItemsPage(w http.ResponseWriter, r *http.Request, f photo.Filter, position, matched int) {
	l := i18n.From(r.Context())
	m := views.OGC{Heading: "Photos", Description: l.T("ogc.photos-from", "n", position+1),
		Columns: []string{"Date", "Place", "Credit", "Caption"}}
	var last int64
	err := s.db.EachFeature(r.Context(), f, func(ft *photo.Feature) error {
		last = ft.Seq
		credit := ft.Photographer
		if ft.Agency != "" {
			credit = strings.TrimPrefix(credit+" / "+ft.Agency, " / ")
		}
		m.Items = append(m.Items, views.OGCItem{ID: ft.ID, URL: s.base(r) + s.url("ogc.item", "collection", "photos", "id", ft.ID) + "?f=html",
			Cells: []string{pagemodel.Date(l, ft.Date), ft.PlaceName, credit, ft.Caption}})
		return nil
	})
	if err != nil {
		s.error(w, r, err)
		return
	}
	m.Facts = []views.Fact{{Label: "Matched", Value: l.Int(matched)}, {Label: "On this page", Value: l.Int(len(m.Items))}}
	m.Links = pageLinks(l, s.itemsLinks(r, "html", mediaGeoJSON, "photos", position, f.Limit, len(m.Items), matched, last))
	s.ogcPage(w, r, m)
}

// photoItem serves one photo as a GeoJSON feature with its links.
func (s *API) photoItem(w http.ResponseWriter, r *http.Request) {
	format, done := s.ogcStart(w, r, []string{"crs"})
	if done {
		return
	}
	id := mux.Vars(r)["id"]
	var feature []byte
	err := s.db.EachFeature(r.Context(), photo.Filter{Conds: []photo.Cond{{Property: "id", Op: "=", Value: id}}, Limit: 1},
		func(ft *photo.Feature) error {
			feature = web.AppendFeature(nil, ft, s.links(s.base(r), ft), s.publicGPS)
			return nil
		})
	if err == nil && feature == nil {
		err = web.NotFound("no photo %q", id)
	}
	if err != nil {
		s.error(w, r, err)
		return
	}
	if format == "html" {
		http.Redirect(w, r, s.url("photo", "id", id), http.StatusSeeOther)
		return
	}
	s.writeItem(w, r, "photos", feature)
}

// writeItem answers one item: its GeoJSON Feature (an object) with its
// links (self, alternate, collection) added.
func (s *API) writeItem(w http.ResponseWriter, r *http.Request, collection string, feature []byte) {
	links := append(s.selfLinks(r, "json", mediaGeoJSON),
		Link{Href: s.base(r) + s.url("ogc.collection", "collection", collection), Rel: "collection", Type: mediaJSON, Title: "The collection"})
	lb, _ := web.MarshalJSON(links)
	feature = bytes.TrimSuffix(bytes.TrimSpace(feature), []byte("}"))
	w.Header().Set("Content-Type", mediaGeoJSON)
	w.Write(append(append(append(feature, `,"links":`...), bytes.TrimSpace(lb)...), "}\n"...))
}

// PhotoItemsParams are all the query parameters the photos' items take,
// which the OpenAPI document must list.
func PhotoItemsParams() []string {
	out := append(append([]string{"f"}, itemsParams...), photoItemsParams...)
	return append(out, queryableNames(photoQueryables)...)
}

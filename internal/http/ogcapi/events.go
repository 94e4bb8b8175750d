package ogcapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gorilla/mux"
	"github.com/paulmach/orb/geojson"

	"github.com/syriamap/syriamap/internal/conflict"
	"github.com/syriamap/syriamap/internal/http/cql"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/views"
)

// The events collection is the archive's UCDP GED events (ACLED's terms
// keep its rows from the public: it is never a collection), each with
// the number of photos editors linked to it, filtered by the events
// query (web.ParseEventQuery) and OGC's datetime.

// eventItemsParams are the events' further parameters.
var eventItemsParams = []string{"datetime"}

// eventQueryables are the events' queryables, each a query parameter.
var eventQueryables = []queryable{
	{"kind", cql.String, "UCDP's type of violence: state-based, non-state or one-sided"},
	{"documented", cql.String, "1: the events editors linked a photo to; 0: those no photo documents"},
}

// eventQuery reads the events' items query.
func eventQuery(q url.Values) (conflict.EventQuery, error) {
	eq, err := web.ParseEventQuery(url.Values{"bbox": q["bbox"], "kind": q["kind"], "documented": q["documented"]})
	if err != nil {
		return eq, err
	}
	if v := q.Get("datetime"); v != "" {
		from, to, err := parseDatetime(v)
		if err != nil {
			return eq, err
		}
		if !from.IsZero() {
			eq.From, _ = from.Span()
		}
		if !to.IsZero() {
			_, eq.To = to.Span()
		}
	}
	return eq, nil
}

// eventItems serves a page of the events.
func (s *API) eventItems(w http.ResponseWriter, r *http.Request) {
	format, done := s.ogcStart(w, r, itemsParams, eventItemsParams, queryableNames(eventQueryables))
	if done {
		return
	}
	q := r.URL.Query()
	eq, err := eventQuery(q)
	var hits bool
	if err == nil {
		eq.Limit, eq.Offset, err = paging(q)
	}
	if err == nil {
		hits, err = resultHits(q)
	}
	if err != nil {
		s.error(w, r, err)
		return
	}
	if hits {
		eq.Limit, eq.Offset = 1, 0
	}
	rows, matched, err := s.db.Events(r.Context(), eq)
	if err != nil {
		s.error(w, r, err)
		return
	}
	if hits {
		rows = nil
	}
	limit, offset := eq.Limit, eq.Offset
	if format == "html" {
		l := i18n.From(r.Context())
		v := views.OGC{Heading: "Events", Description: l.T("ogc.events-from", "n", offset+1),
			Columns: []string{"Day", "Place", "Type of violence", "Deaths", "Photos"}}
		for _, e := range rows {
			v.Items = append(v.Items, views.OGCItem{ID: photo.EventKey(e.Dataset, e.ID), URL: s.url("event", "dataset", e.Dataset, "event", e.ID),
				Cells: []string{fmt.Sprint(e.DateStart), e.Where, e.Kind, l.Int(e.Deaths), l.Int(e.Photos)}})
		}
		v.Facts = []views.Fact{{Label: "Matched", Value: l.Int(matched)}, {Label: "On this page", Value: l.Int(len(rows))}}
		v.Links = pageLinks(l, s.itemsLinks(r, "html", mediaGeoJSON, "events", offset, limit, len(rows), matched, 0))
		s.ogcPage(w, r, v)
		return
	}
	fc := struct {
		Type           string             `json:"type"`
		Features       []*geojson.Feature `json:"features"`
		NumberMatched  int                `json:"numberMatched"`
		NumberReturned int                `json:"numberReturned"`
		TimeStamp      string             `json:"timeStamp"`
		Links          []Link             `json:"links"`
	}{Type: "FeatureCollection", Features: []*geojson.Feature{}, NumberMatched: matched, NumberReturned: len(rows),
		TimeStamp: time.Now().UTC().Format(time.RFC3339)}
	for _, e := range rows {
		fc.Features = append(fc.Features, web.EventFeature(e, s.base(r)+s.url("event", "dataset", e.Dataset, "event", e.ID)))
	}
	fc.Links = s.itemsLinks(r, "json", mediaGeoJSON, "events", offset, limit, len(rows), matched, 0)
	s.writeJSON(w, r, mediaGeoJSON, fc)
}

// eventItem serves one event by its key (ucdp-ged:270123) or its GED id.
func (s *API) eventItem(w http.ResponseWriter, r *http.Request) {
	format, done := s.ogcStart(w, r, []string{"crs"})
	if done {
		return
	}
	id := mux.Vars(r)["id"]
	dataset, eventID, ok := photo.SplitEventKey(id)
	if !ok {
		dataset, eventID = conflict.GED, id
	}
	if !photo.Public.SeesDataset(dataset) { // the collection is the public datasets' (photo.Licences)
		s.error(w, r, web.NotFound("no event %q: the collection holds UCDP GED's events", strings.SplitN(id, ":", 2)[0]+":…"))
		return
	}
	e, retired, err := s.db.Event(r.Context(), dataset, eventID)
	if err == nil && retired != "" {
		err = web.NotFound("event %s was dropped by its dataset in version %s", id, retired)
	}
	if err != nil {
		s.error(w, r, err)
		return
	}
	if format == "html" {
		http.Redirect(w, r, s.url("event", "dataset", dataset, "event", eventID), http.StatusSeeOther)
		return
	}
	links, err := s.db.LinksToEvent(r.Context(), dataset, eventID)
	if err != nil {
		s.error(w, r, err)
		return
	}
	body, err := json.Marshal(web.EventFeature(conflict.EventRow{Event: e, Photos: len(links)}, s.base(r)+s.url("event", "dataset", dataset, "event", eventID)))
	if err != nil {
		s.error(w, r, err)
		return
	}
	s.writeItem(w, r, "events", body)
}

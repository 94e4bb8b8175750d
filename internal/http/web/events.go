package web

import (
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geojson"

	"github.com/syriamap/syriamap/internal/conflict"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/internal/photo"
)

// EventKinds are GED's types of violence as the kind parameter names
// them.
var EventKinds = []string{"state-based", "non-state", "one-sided"}

// eventMessages are the messages of a bad events parameter.
var eventMessages = map[string]string{
	"kind":       "%q: want state-based, non-state or one-sided",
	"documented": "%q: want 1 (events photos document) or 0 (events no photo documents)",
}

// ParseEventQuery reads the events parameters: from and to as the photo
// filters read them (a day, a month or a year), bbox, kind (may repeat)
// and documented.
func ParseEventQuery(q url.Values) (conflict.EventQuery, error) {
	var eq conflict.EventQuery
	for _, name := range []string{"from", "to", "bbox", "documented"} {
		if err := Once(q, name); err != nil {
			return eq, err
		}
	}
	f, err := ParseFilter(url.Values{"from": q["from"], "to": q["to"], "bbox": q["bbox"]})
	if err != nil {
		return eq, err
	}
	w := photo.WindowOf(f)
	if w.From {
		eq.From = w.First
	}
	if w.To {
		eq.To = w.Last
	}
	eq.BBox = f.BBox
	for _, k := range MultiParam(q, "kind") {
		if !slices.Contains(EventKinds, k) {
			return eq, BadParam("kind", eventMessages["kind"], k)
		}
		eq.Kinds = append(eq.Kinds, k)
	}
	switch v := strings.TrimSpace(q.Get("documented")); v {
	case "":
	case "1", "true", "0", "false":
		d := v == "1" || v == "true"
		eq.Documented = &d
	default:
		return eq, BadParam("documented", eventMessages["documented"], v)
	}
	return eq, nil
}

// EventFeature is a conflict event as a GeoJSON Feature: its point as
// its dataset gives it (see place_known: a point of an event known only
// to its governorate is the governorate's), its fields, how many photos
// an editor linked to it, and its page's address.
func EventFeature(r conflict.EventRow, pageURL string) *geojson.Feature {
	e := r.Event
	f := geojson.NewFeature(orb.Point{Round6(e.Lon), Round6(e.Lat)})
	f.ID = photo.EventKey(e.Dataset, e.ID)
	f.Properties = geojson.Properties{
		"dataset": e.Dataset, "version": e.Version, "event_id": e.ID,
		"date_start": photo.DateFromSpan(e.DateStart, e.DateStart, "day").String(), "date_end": photo.DateFromSpan(e.DateEnd, e.DateEnd, "day").String(), "date_prec": e.DatePrec, "date_known": PrecisionWords(e.Dataset, "date", e.DatePrec),
		"where": NullIfEmpty(e.Where), "adm_1": NullIfEmpty(e.Adm1), "adm_2": NullIfEmpty(e.Adm2),
		"where_prec": e.WherePrec, "place_known": PrecisionWords(e.Dataset, "where", e.WherePrec),
		"kind": NullIfEmpty(e.Kind), "side_a": NullIfEmpty(e.SideA), "side_b": NullIfEmpty(e.SideB),
		"deaths": e.Deaths, "civilians": e.Civilians, "source": NullIfEmpty(e.Source), "headline": NullIfEmpty(e.Headline),
		"photos": r.Photos, "url": pageURL,
	}
	return f
}

// PrecisionWords says a precision code in English words, as the event
// page says it: the catalogue's events.<dataset>.<date|where>.<code>.
func PrecisionWords(dataset, kind string, code int) string {
	return i18n.Locale{}.Named("events."+dataset+"."+kind+".", strconv.Itoa(code))
}

// AppendEventPoint appends one event as the map loads them all at once
// (/api/events/points.json, a published site's events): [id, lon, lat,
// first day, last day (YYYYMMDD), kind (1 state-based, 2 non-state, 3
// one-sided, 0 other), deaths, where_prec, photos].
func AppendEventPoint(b []byte, r conflict.EventRow) []byte {
	e := r.Event
	b = append(b, '[')
	b = AppendString(b, e.ID)
	b = append(b, ',')
	b = strconv.AppendFloat(b, e.Lon, 'f', 4, 64)
	b = append(b, ',')
	b = strconv.AppendFloat(b, e.Lat, 'f', 4, 64)
	kind := 0
	for i, k := range EventKinds {
		if e.Kind == k {
			kind = i + 1
		}
	}
	for _, v := range []int{e.DateStart, e.DateEnd, kind, e.Deaths, e.WherePrec, r.Photos} {
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(v), 10)
	}
	return append(b, ']')
}

// EventPointsJSON is every event of rows as the map loads them at once
// (/api/events/points.json, and a published site's events file), with the
// dataset's citation and the address of an event's page (DATASET and ID
// stand for its dataset and id; "" where there are no event pages):
// {"citation": …, "page": …, "events": [AppendEventPoint, …]}.
func EventPointsJSON(rows []conflict.EventRow, citation, page string) []byte {
	b := append(make([]byte, 0, 64*len(rows)+1024), `{"citation":`...)
	b = AppendString(b, citation)
	b = append(b, `,"page":`...)
	b = appendOrNull(b, page)
	b = append(b, `,"events":[`...)
	for i, row := range rows {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendEventPoint(b, row)
	}
	return append(b, "]}"...)
}

package eventsapi

import (
	"net/http"
	"time"

	"github.com/paulmach/orb/geojson"

	"github.com/syriamap/syriamap/internal/conflict"
	"github.com/syriamap/syriamap/internal/http/web"
)

// eventPoints answers every UCDP GED event at once, compact, for the
// explorer's events layer and timeline (web.AppendEventPoint):
// {"citation": …, "events": [[id, lon, lat, from, to, kind, deaths,
// where_prec, photos], …]}.
func (a *API) eventPoints(w http.ResponseWriter, r *http.Request) {
	rows, _, err := a.DB.Events(r.Context(), conflict.EventQuery{})
	var citation string
	if err == nil {
		citation, err = a.DB.EventsCitation(r.Context())
	}
	if err != nil {
		a.Error(w, r, err)
		return
	}
	b := web.EventPointsJSON(rows, citation, a.Kit.URL("event", "dataset", "DATASET", "event", "ID"))
	w.Header().Set("Content-Type", "application/json")
	w.Write(b)
}

// eventsGeoJSONParams are the parameters /api/events.geojson takes: the
// events' filters (web.ParseEventQuery) and download; any other is
// refused, as the OGC route refuses it.
var eventsGeoJSONParams = []string{"from", "to", "bbox", "kind", "documented", "download"}

// eventsGeoJSON answers the UCDP GED events the query selects
// (web.ParseEventQuery) as a GeoJSON FeatureCollection, with the
// dataset's citation as its attribution.
func (a *API) eventsGeoJSON(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	err := web.CheckParams(q, eventsGeoJSONParams...)
	var eq conflict.EventQuery
	if err == nil {
		eq, err = web.ParseEventQuery(q)
	}
	if err != nil {
		a.Error(w, r, err)
		return
	}
	rows, _, err := a.DB.Events(r.Context(), eq)
	var citation string
	if err == nil {
		citation, err = a.DB.EventsCitation(r.Context())
	}
	if err != nil {
		a.Error(w, r, err)
		return
	}
	fc := struct {
		Type        string             `json:"type"`
		Attribution string             `json:"attribution"`
		TimeStamp   string             `json:"timeStamp"`
		Features    []*geojson.Feature `json:"features"`
	}{Type: "FeatureCollection", Attribution: citation, TimeStamp: a.Now().UTC().Format(time.RFC3339), Features: []*geojson.Feature{}}
	base := a.Base(r)
	for _, row := range rows {
		fc.Features = append(fc.Features, web.EventFeature(row, base+a.Kit.URL("event", "dataset", row.Dataset, "event", row.ID)))
	}
	if q.Get("download") != "" {
		w.Header().Set("Content-Disposition", `attachment; filename="syriamap-events.geojson"`)
	}
	a.Kit.WriteJSON(w, r, "application/geo+json", fc)
}

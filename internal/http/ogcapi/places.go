package ogcapi

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gorilla/mux"
	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geojson"

	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/views"
)

// The places collection is the gazetteer, which is in memory: its items
// are filtered here, in the gazetteer's order, which never changes while
// the server runs.

// placeBBox is the extent of the gazetteer's located places.
func placeBBox(g *gazetteer.Gazetteer) [4]float64 {
	var b orb.Bound
	first := true
	for i := range g.Places() {
		p := &g.Places()[i]
		if !p.Located {
			continue
		}
		if first {
			b, first = p.Point.Bound(), false
		}
		b = b.Extend(p.Point)
	}
	return [4]float64{b.Min[0], b.Min[1], b.Max[0], b.Max[1]}
}

// placeMatcher selects places by the places collection's parameters.
type placeMatcher struct {
	bbox        *orb.Bound
	names       map[*gazetteer.Place]bool // nil: any name
	kind        []string
	governorate []string
	country     []string
}

func (s *API) placeMatcher(q url.Values) (placeMatcher, error) {
	var m placeMatcher
	if v := strings.TrimSpace(q.Get("bbox")); v != "" {
		b, err := web.ParseBBox(v)
		if err != nil {
			return m, err
		}
		m.bbox = b
	}
	if names := web.MultiParam(q, "name"); len(names) > 0 {
		m.names = map[*gazetteer.Place]bool{}
		for _, n := range names {
			for _, p := range s.gazetteer.Lookup(n) {
				m.names[p] = true
			}
		}
	}
	m.kind, m.governorate, m.country = web.MultiParam(q, "kind"), web.MultiParam(q, "governorate"), web.MultiParam(q, "country")
	return m, nil
}

func anyFold(values []string, v ...string) bool {
	if len(values) == 0 {
		return true
	}
	for _, want := range values {
		for _, x := range v {
			if x != "" && strings.EqualFold(want, x) {
				return true
			}
		}
	}
	return false
}

func (m placeMatcher) match(p *gazetteer.Place) bool {
	return (m.bbox == nil || p.Located && m.bbox.Contains(p.Point)) && (m.names == nil || m.names[p]) &&
		anyFold(m.kind, string(p.Kind)) && anyFold(m.governorate, p.Governorate.Name, p.Governorate.PCode) &&
		anyFold(m.country, p.Country)
}

// placeFeature is a place as a GeoJSON feature (no geometry when no
// source gives it a point).
func (s *API) placeFeature(r *http.Request, p *gazetteer.Place) *geojson.Feature {
	var geom orb.Geometry
	if p.Located {
		geom = orb.Point{web.Round6(p.Point[0]), web.Round6(p.Point[1])}
	}
	f := geojson.NewFeature(geom)
	f.ID = p.ID
	f.Properties = geojson.Properties{"name": p.Name, "name_ar": web.NullIfEmpty(p.NameAr), "kind": string(p.Kind),
		"governorate": web.NullIfEmpty(p.Governorate.Name), "governorate_pcode": web.NullIfEmpty(p.Governorate.PCode),
		"district": web.NullIfEmpty(p.District.Name), "subdistrict": web.NullIfEmpty(p.Subdistrict.Name),
		"country": p.Country, "population": p.Population, "parent": web.NullIfEmpty(p.Parent),
		"ids": strings.Join(p.IDs(), " "), "names": strings.Join(p.Names, "; "),
		"url": s.base(r) + s.url("place", "id", p.ID)}
	return f
}

// placeItems serves a page of the gazetteer's places.
func (s *API) placeItems(w http.ResponseWriter, r *http.Request) {
	format, done := s.ogcStart(w, r, itemsParams, queryableNames(placeQueryables))
	if done {
		return
	}
	q := r.URL.Query()
	m, err := s.placeMatcher(q)
	var limit, offset int
	if err == nil {
		limit, offset, err = paging(q)
	}
	var hits bool
	if err == nil {
		hits, err = resultHits(q)
	}
	if err != nil {
		s.error(w, r, err)
		return
	}
	places := s.gazetteer.Places()
	var page []*gazetteer.Place
	matched := 0
	for i := range places {
		if !m.match(&places[i]) {
			continue
		}
		if matched >= offset && len(page) < limit && !hits {
			page = append(page, &places[i])
		}
		matched++
	}
	if format == "html" {
		l := i18n.From(r.Context())
		v := views.OGC{Heading: "Places", Description: l.T("ogc.places-from", "n", offset+1),
			Columns: []string{"Name", "Arabic", "Kind", "Governorate"}}
		for _, p := range page {
			v.Items = append(v.Items, views.OGCItem{ID: p.ID, URL: s.url("place", "id", p.ID), Cells: []string{p.Name, p.NameAr, l.Named("kind.", string(p.Kind)), p.Governorate.Name}})
		}
		v.Facts = []views.Fact{{Label: "Matched", Value: l.Int(matched)}, {Label: "On this page", Value: l.Int(len(page))}}
		v.Links = pageLinks(l, s.itemsLinks(r, "html", mediaGeoJSON, "places", offset, limit, len(page), matched, 0))
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
	}{Type: "FeatureCollection", Features: []*geojson.Feature{}, NumberMatched: matched, NumberReturned: len(page),
		TimeStamp: time.Now().UTC().Format(time.RFC3339)}
	for _, p := range page {
		fc.Features = append(fc.Features, s.placeFeature(r, p))
	}
	fc.Links = s.itemsLinks(r, "json", mediaGeoJSON, "places", offset, limit, len(page), matched, 0)
	s.writeJSON(w, r, mediaGeoJSON, fc)
}

// placeItem serves one place, by any of its ids.
func (s *API) placeItem(w http.ResponseWriter, r *http.Request) {
	format, done := s.ogcStart(w, r, []string{"crs"})
	if done {
		return
	}
	id := mux.Vars(r)["id"]
	p := s.gazetteer.ByID(id)
	if p == nil {
		s.error(w, r, web.NotFound("no place %q in the gazetteer", id))
		return
	}
	if format == "html" {
		http.Redirect(w, r, s.url("place", "id", p.ID), http.StatusSeeOther)
		return
	}
	f := s.placeFeature(r, p)
	body, err := json.Marshal(f)
	if err != nil {
		s.error(w, r, err)
		return
	}
	s.writeItem(w, r, "places", body)
}

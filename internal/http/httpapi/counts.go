package httpapi

import (
	"net/http"
	"net/url"
	"time"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geojson"

	"github.com/syriamap/syriamap/internal/http/pagemodel"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/i18n"
	"github.com/syriamap/syriamap/internal/photo"
)

// days counts the days from first to last (YYYYMMDD), both included.
func days(first, last int) int {
	t := func(d int) time.Time { return time.Date(d/10000, time.Month(d/100%100), d%100, 0, 0, 0, 0, time.UTC) }
	return int(t(last).Sub(t(first)).Hours()/24) + 1
}

// timeline counts the selected photos per month (bin=month, the default),
// per year (bin=year) or, for a window of a year or less, per day
// (bin=day: the day-dated photos only). Photos dated only to a year have
// bins of their own with bin=month ("2016").
func (s *Server) timeline(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	bin, err := web.TimelineBin.Parse(q)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	f, err := s.parseFilter(q)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	if bin == "day" {
		first, _ := f.From.Span()
		_, last := f.To.Span()
		if first == 0 || last == 0 || days(first, last) > web.MaxDayBins {
			s.Error(w, r, web.BadParam("bin", "day needs a window (from and to) of at most %d days", web.MaxDayBins))
			return
		}
	}
	histogram := s.db.Histogram
	if bin == "day" {
		histogram = s.db.DayHistogram
	}
	h, err := histogram(r.Context(), f)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	type count struct {
		Bin   string `json:"bin"`
		Count int    `json:"count"`
	}
	counts := []count{}
	for _, mc := range h {
		b := mc.Month
		if bin == "year" {
			b = b[:4]
		}
		if n := len(counts); n > 0 && counts[n-1].Bin == b {
			counts[n-1].Count += mc.Count
			continue
		}
		counts = append(counts, count{b, mc.Count})
	}
	total := 0
	for _, c := range counts {
		total += c.Count
	}
	s.WriteJSON(w, r, "application/json", map[string]any{"bin": bin, "total": total, "counts": counts})
}

// facets counts the selected photos by agency, photographer, governorate
// and place (field= names one of them, else all four), each under the
// filter without its own selection, with the number of photos selected.
func (s *Server) facets(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f, err := s.parseFilter(q)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	limit, err := web.FacetsLimit.Parse(q)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	field, err := web.FacetsField.Parse(q)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	var only []photo.Facet
	if field != "" {
		only = []photo.Facet{photo.Facet(field)}
	}
	fc, err := s.facetCache.Facets(r.Context(), f, limit, only...)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	total, err := s.db.CountPhotos(r.Context(), f)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	all, err := s.db.CountPhotos(r.Context(), photo.Filter{})
	if err != nil {
		s.Error(w, r, err)
		return
	}
	type value struct {
		Value   string `json:"value"`
		Label   string `json:"label"`
		LabelAr string `json:"label_ar,omitempty"` // a place's, governorate's or source's Arabic name
		Count   int    `json:"count"`
	}
	out := map[string]any{"photos": total, "of": all}
	for _, facet := range photo.AllFacets {
		cs := *fc.Of(facet)
		if cs == nil {
			continue // not asked for
		}
		vals := []value{}
		for _, c := range cs {
			vals = append(vals, value{Value: c.Value, Label: c.Label, LabelAr: pagemodel.FacetLabelAr(s.archive.Gazetteer(), facet, c.Value), Count: c.Count})
		}
		out[web.FacetKeys[facet]] = vals
	}
	s.WriteJSON(w, r, "application/json", out)
}

// arabic is the locale of the API's Arabic names (name_ar, label_ar).
var arabic = i18n.Locale{Lang: i18n.Arabic}

// placesGeoJSON serves the places that have selected photos, with their
// photo counts and the dates of the first and last.
func (s *Server) placesGeoJSON(w http.ResponseWriter, r *http.Request) {
	f, err := s.parseFilter(r.URL.Query())
	if err != nil {
		s.Error(w, r, err)
		return
	}
	places, err := s.db.PlacesWithPhotos(r.Context(), f)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	fc := geojson.NewFeatureCollection()
	for _, p := range places {
		ft := geojson.NewFeature(orb.Point{web.Round6(p.Lon), web.Round6(p.Lat)})
		ft.ID = p.ID
		ft.Properties = geojson.Properties{"place_id": p.ID, "name": p.Name, "name_ar": web.NullIfEmpty(pagemodel.NameOf(arabic, s.archive.Gazetteer(), p.ID, "")), "kind": p.Kind, "governorate": p.Governorate,
			"photos": p.Count, "first_date": web.NullIfEmpty(p.First.String()), "last_date": web.NullIfEmpty(p.Last.String()),
			"photos_url": s.URL("photos.geojson") + "?place=" + url.QueryEscape(p.ID)}
		fc.Append(ft)
	}
	s.WriteJSON(w, r, "application/geo+json", fc)
}

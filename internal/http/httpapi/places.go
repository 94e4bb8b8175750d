package httpapi

import (
	"math"
	"net/http"
	"strings"

	"github.com/gorilla/mux"

	"github.com/syriamap/syriamap/internal/geoparse/gazetteer"
	"github.com/syriamap/syriamap/internal/http/pagemodel"
	"github.com/syriamap/syriamap/internal/http/session"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/photo"
)

// addedPlaceBody is what POST /api/places takes: a place the gazetteer
// lacks. Its id, who added it and when are the server's to give.
type addedPlaceBody struct {
	Name   string   `json:"name"`
	NameAr string   `json:"name_ar"`
	Names  []string `json:"names"`
	Kind   string   `json:"kind"`
	Lon    *float64 `json:"lon"`
	Lat    *float64 `json:"lat"`
	Parent string   `json:"parent"`
	Source string   `json:"source"`
	// Country is the ISO code of a place abroad; Distinct marks another
	// place of a name the gazetteer holds (see photo.AddedPlace).
	Country  string `json:"country"`
	Distinct bool   `json:"distinct"`
}

// addPlace adds a place to the archive's gazetteer for an editor: from
// the next import, regeocode and place search on, captions naming it
// find it. It answers 201 with the place as kept.
func (s *Server) addPlace(w http.ResponseWriter, r *http.Request, ed *session.Editor) {
	var b addedPlaceBody
	if err := decodeBody(r, &b); err != nil {
		s.Error(w, r, err)
		return
	}
	if b.Lon == nil || b.Lat == nil {
		s.Error(w, r, &photo.Error{Code: photo.EInvalid, Message: "give the place's point: lon and lat", Parameter: "lon"})
		return
	}
	kept, err := s.archive.AddPlaces(r.Context(), []photo.AddedPlace{{Name: b.Name, NameAr: b.NameAr, Names: b.Names, Kind: b.Kind,
		Lon: *b.Lon, Lat: *b.Lat, Parent: b.Parent, Source: b.Source, Country: b.Country, Distinct: b.Distinct}}, ed.Name)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	body, err := web.MarshalJSON(kept[0])
	if err != nil {
		s.Error(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Location", s.URL("place", "id", kept[0].ID))
	s.tagPlace(w, r, kept[0].ID)
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusCreated)
	w.Write(body)
}

// placeChangeBody is what DELETE, PATCH /api/places/{id} and POST
// /api/places/{id}/restore take: why, and for a move the new point.
type placeChangeBody struct {
	Reason string   `json:"reason"`
	Lon    *float64 `json:"lon"`
	Lat    *float64 `json:"lat"`
}

// changePlace takes back a place an editor added: DELETE removes it,
// PATCH moves it to a new point, POST …/restore brings a removed one
// back. The photos it held return to the geocoder. It answers 200 with
// how many photos moved.
func (s *Server) changePlace(w http.ResponseWriter, r *http.Request, ed *session.Editor) {
	var b placeChangeBody
	if err := decodeBody(r, &b); err != nil {
		s.Error(w, r, err)
		return
	}
	c := photo.PlaceChange{ID: mux.Vars(r)["place"], Author: ed.Name, Reason: b.Reason}
	switch {
	case r.Method == http.MethodDelete:
		c.Remove = true
	case r.Method == http.MethodPost:
		c.Restore = true
	case b.Lon == nil || b.Lat == nil:
		s.Error(w, r, &photo.Error{Code: photo.EInvalid, Message: "give the place's new point: lon and lat", Parameter: "lon"})
		return
	default:
		c.Lon, c.Lat = b.Lon, b.Lat
	}
	moved, err := s.archive.ChangePlace(r.Context(), c)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	s.tagPlace(w, r, c.ID)
	s.WriteJSON(w, r, "application/json", map[string]any{"id": c.ID, "photos_moved": moved})
}

// searchPlaces finds gazetteer places by any spelling, English or
// Arabic: for the review page's place field every place, for a filter
// (with_photos=true) only the places that hold photos — at them, inside
// them (a city's quarters, each named in within) or, for a governorate,
// in it (pagemodel.HoldingPlaces) — as a published site, which holds no
// others, answers too.
func (s *Server) searchPlaces(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	name := strings.TrimSpace(q.Get("q"))
	if name == "" || len(name) > web.MaxPlaceName {
		s.Error(w, r, web.BadParam("q", web.PlaceNameMessage, web.MaxPlaceName))
		return
	}
	limit, err := web.PlacesLimit.Parse(q)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	only, err := web.PlacesWithPhotos.Parse(q)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	var keep func(*gazetteer.Place) bool
	var holding pagemodel.Holding
	if only == "true" {
		fc, err := s.facetCache.Facets(r.Context(), photo.Filter{}, math.MaxInt32, photo.FacetPlace)
		if err != nil {
			s.Error(w, r, err)
			return
		}
		ids := make([]string, len(fc.Places))
		for i, c := range fc.Places {
			ids[i] = c.Value
		}
		holding = pagemodel.HoldingPlaces(s.archive.Gazetteer(), ids)
		keep = func(p *gazetteer.Place) bool { return holding.Held[p.ID] }
	}
	out := []pagemodel.PlaceFound{}
	spelled := map[string]bool{}
	for _, p := range s.archive.Gazetteer().Lookup(name) {
		spelled[p.ID] = true
	}
	for _, p := range s.archive.SearchPlaces(name, limit, keep) {
		f := pagemodel.FoundPlace(p)
		f.Spelling = spelled[p.ID]
		if keep != nil {
			f.Within = holding.Within(p)
		}
		out = append(out, f)
	}
	s.WriteJSON(w, r, "application/json", out)
}

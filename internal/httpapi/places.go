package httpapi

import (
	"net/http"

	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/session"
	"github.com/syriamap/syriamap/internal/web"
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
}

// addPlace adds a place to the archive's gazetteer for an editor: from
// the next import, regeocode and place search on, captions naming it
// find it. It answers 201 with the place as kept.
func (s *Server) addPlace(w http.ResponseWriter, r *http.Request, ed *session.Editor) {
	var b addedPlaceBody
	if err := decodeBody(r, &b); err != nil {
		s.error(w, r, err)
		return
	}
	if b.Lon == nil || b.Lat == nil {
		s.error(w, r, &photo.Error{Code: photo.EInvalid, Message: "give the place's point: lon and lat", Parameter: "lon"})
		return
	}
	kept, err := s.archive.AddPlaces(r.Context(), []photo.AddedPlace{{Name: b.Name, NameAr: b.NameAr, Names: b.Names, Kind: b.Kind,
		Lon: *b.Lon, Lat: *b.Lat, Parent: b.Parent, Source: b.Source}}, ed.Name)
	if err != nil {
		s.error(w, r, err)
		return
	}
	body, err := web.MarshalJSON(kept[0])
	if err != nil {
		s.error(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Location", s.url("place", "id", kept[0].ID))
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusCreated)
	w.Write(body)
}

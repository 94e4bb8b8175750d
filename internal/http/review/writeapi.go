package review

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/gorilla/mux"

	"github.com/syriamap/syriamap/internal/http/session"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/photo"
)

// placementBody is PUT /api/photos/{id}/placement's body.
type placementBody struct {
	PlaceID *string  `json:"place_id"`
	Lon     *float64 `json:"lon"`
	Lat     *float64 `json:"lat"`
	Confirm bool     `json:"confirm"`
	Note    string   `json:"note"`
	// AllWithMention applies the change to every photo no person has
	// checked whose place was read from the same text and that is shown
	// at the same place.
	AllWithMention bool `json:"all_with_mention"`
}

// putPlacement sets or confirms a photo's place and answers with the
// photo's Feature.
func (s *API) putPlacement(w http.ResponseWriter, r *http.Request, ed *session.Editor) {
	id := mux.Vars(r)["id"]
	var b placementBody
	if err := web.DecodeWrite(r, &b); err != nil {
		s.Error(w, r, err)
		return
	}
	ch := photo.Change{Author: ed.Name, Note: strings.TrimSpace(b.Note), Confirm: b.Confirm}
	given := 0
	if b.PlaceID != nil {
		given++
	}
	if b.Lon != nil || b.Lat != nil {
		given++
	}
	if b.Confirm {
		given++
	}
	var err error
	switch {
	case given != 1:
		err = &photo.Error{Code: photo.EInvalid, Message: `give one of place_id, lon and lat, or "confirm": true`, Parameter: "place_id"}
	case b.PlaceID != nil:
		var pl photo.Place
		if *b.PlaceID == "" {
			err = &photo.Error{Code: photo.EInvalid, Message: "place_id: empty", Parameter: "place_id"}
		} else if pl, err = s.Store.PlaceOf(*b.PlaceID, nil); err == nil {
			ch.Place = &pl
		}
	case b.Confirm:
	case b.Lon == nil || b.Lat == nil:
		missing := "lat"
		if b.Lon == nil {
			missing = "lon"
		}
		err = &photo.Error{Code: photo.EInvalid, Message: missing + ": a point needs lon and lat", Parameter: missing}
	default:
		var pl photo.Place
		if pl, err = s.Store.PlaceOf("", &[2]float64{*b.Lon, *b.Lat}); err == nil {
			ch.Place = &pl
		}
	}
	var p *photo.Photo
	if err == nil {
		p, err = s.Store.Photo(r.Context(), id) // 404 before anything else is said
	}
	ids := []string{id}
	if err == nil && b.AllWithMention {
		ids, err = s.Store.SameReading(r.Context(), id, decidedPlace(ch, p.Place))
	}
	if err == nil {
		_, err = s.Store.Apply(r.Context(), ids, ch)
	}
	if err != nil {
		s.Error(w, r, err)
		return
	}
	s.answerPhoto(w, r, id)
}

// putDetails fixes a photo's date or credit: {"date": "2016-03",
// "photographer": "…", "agency": "…", "note": "…"}, each optional.
func (s *API) putDetails(w http.ResponseWriter, r *http.Request, ed *session.Editor) {
	id := mux.Vars(r)["id"]
	var b struct {
		Date         *string `json:"date"`
		Photographer *string `json:"photographer"`
		Agency       *string `json:"agency"`
		Note         string  `json:"note"`
	}
	if err := web.DecodeWrite(r, &b); err != nil {
		s.Error(w, r, err)
		return
	}
	form := url.Values{}
	for k, v := range map[string]*string{"date": b.Date, "photographer": b.Photographer, "agency": b.Agency} {
		if v != nil {
			form.Set(k, *v)
		}
	}
	ch, err := s.fixChange(photo.Change{Author: ed.Name, Note: strings.TrimSpace(b.Note)}, form)
	if err == nil {
		_, err = s.Store.Apply(r.Context(), []string{id}, ch)
	}
	if err != nil {
		s.Error(w, r, err)
		return
	}
	s.answerPhoto(w, r, id)
}

// answerPhoto answers a write with the photo as it now is.
func (s *API) answerPhoto(w http.ResponseWriter, r *http.Request, id string) {
	p, err := web.ReadPhoto(w, r, s.Store, id)
	if err == nil {
		var body []byte
		if body, err = s.Feature(r, p, true); err == nil { // an editor's write
			w.Header().Set("ETag", photo.ETag(photo.VersionPhoto, p.Rev))
			w.Header().Set("Content-Type", "application/geo+json")
			w.Header().Set("Cache-Control", "no-store")
			w.Write(append(body, '\n'))
			return
		}
	}
	s.Error(w, r, err)
}

package httpapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/gorilla/mux"

	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/session"
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

// sizeText writes a byte count for people: "16 KB", "4 MB".
func sizeText(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%d MB", n>>20)
	}
	return fmt.Sprintf("%d KB", n>>10)
}

// maxBodyBytes bounds a JSON body of the write API.
const maxBodyBytes = 16 << 10

// decodeBody reads a JSON object into v, naming the field at fault. The
// body must say it is JSON and hold the one object and nothing after it:
// a body that is something else is a client's mistake to report, not to
// read around.
func decodeBody(r *http.Request, v any) error { return decodeBodyUpTo(r, v, maxBodyBytes) }

// decodeBodyUpTo is decodeBody for a body of up to limit bytes.
func decodeBodyUpTo(r *http.Request, v any, limit int64) error {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return photo.Errorf(photo.EUnsupported, "the body must be JSON, sent with Content-Type: application/json (not %q)", r.Header.Get("Content-Type"))
	}
	body := &io.LimitedReader{R: r.Body, N: limit + 1}
	dec := json.NewDecoder(body)
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if body.N == 0 { // it went on past the limit: say so, not "unexpected EOF"
		return photo.Errorf(photo.ETooLarge, "the body is larger than %s; send at most that", sizeText(limit))
	}
	if err != nil {
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &te):
			return &photo.Error{Code: photo.EInvalid, Message: fmt.Sprintf("%s: want a %s", te.Field, te.Type), Parameter: te.Field}
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			field := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
			return &photo.Error{Code: photo.EInvalid, Message: fmt.Sprintf("%s: no such field", field), Parameter: field}
		}
		return photo.Errorf(photo.EInvalid, "the body is not a JSON object: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return photo.Errorf(photo.EInvalid, "the body has more after its JSON object; send one object")
	}
	return nil
}

// putPlacement sets or confirms a photo's place and answers with the
// photo's Feature.
func (s *Server) putPlacement(w http.ResponseWriter, r *http.Request, ed *session.Editor) {
	id := mux.Vars(r)["id"]
	var b placementBody
	if err := decodeBody(r, &b); err != nil {
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
		} else if pl, err = s.archive.PlaceOf(*b.PlaceID, nil); err == nil {
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
		if pl, err = s.archive.PlaceOf("", &[2]float64{*b.Lon, *b.Lat}); err == nil {
			ch.Place = &pl
		}
	}
	if err == nil {
		_, err = s.db.AnyPhoto(r.Context(), id) // 404 before anything else is said
	}
	ids := []string{id}
	if err == nil && b.AllWithMention {
		ids, err = s.archive.SameReading(r.Context(), id)
	}
	if err == nil {
		_, err = s.db.Apply(r.Context(), ids, ch)
	}
	if err != nil {
		s.Error(w, r, err)
		return
	}
	s.answerPhoto(w, r, id)
}

// putDetails fixes a photo's date or credit: {"date": "2016-03",
// "photographer": "…", "agency": "…", "note": "…"}, each optional.
func (s *Server) putDetails(w http.ResponseWriter, r *http.Request, ed *session.Editor) {
	id := mux.Vars(r)["id"]
	var b struct {
		Date         *string `json:"date"`
		Photographer *string `json:"photographer"`
		Agency       *string `json:"agency"`
		Note         string  `json:"note"`
	}
	if err := decodeBody(r, &b); err != nil {
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
		_, err = s.db.Apply(r.Context(), []string{id}, ch)
	}
	if err != nil {
		s.Error(w, r, err)
		return
	}
	s.answerPhoto(w, r, id)
}

// answerPhoto answers a write with the photo as it now is.
func (s *Server) answerPhoto(w http.ResponseWriter, r *http.Request, id string) {
	p, err := s.photoFor(w, r, id)
	if err == nil {
		var body []byte
		if body, err = s.photoFeature(r, p, true); err == nil { // an editor's write
			w.Header().Set("Content-Type", "application/geo+json")
			w.Header().Set("Cache-Control", "no-store")
			w.Write(append(body, '\n'))
			return
		}
	}
	s.Error(w, r, err)
}

package web

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/syriamap/syriamap/internal/photo"
)

// MaxWriteBytes bounds the JSON body of an editor's write (a placement,
// a mark, an answer): a few fields, never more.
const MaxWriteBytes = 16 << 10

// DecodeWrite reads an editor's write's JSON body into v (DecodeJSON,
// at most MaxWriteBytes).
func DecodeWrite(r *http.Request, v any) error { return DecodeJSON(r, v, MaxWriteBytes) }

// TypedPlaceID reads a form's place field: an id, or a name the place
// search offered, "Zamalka — town, Rif Dimashq [ocha:C2320]".
func TypedPlaceID(v string) string {
	v = strings.TrimSpace(v)
	if strings.HasSuffix(v, "]") {
		if i := strings.LastIndexByte(v, '['); i >= 0 {
			return strings.TrimSpace(v[i+1 : len(v)-1])
		}
	}
	return v
}

// FormPoint reads a point typed in a form, [lon, lat] in degrees; a
// field that is not a number is an EInvalid error naming it.
func FormPoint(lon, lat string) ([2]float64, error) {
	x, err1 := photo.ParseDecimal(strings.TrimSpace(lon))
	y, err2 := photo.ParseDecimal(strings.TrimSpace(lat))
	switch {
	case err1 != nil:
		return [2]float64{}, &photo.Error{Code: photo.EInvalid, Message: fmt.Sprintf("lon %q is not a number of degrees", lon), Parameter: "lon"}
	case err2 != nil:
		return [2]float64{}, &photo.Error{Code: photo.EInvalid, Message: fmt.Sprintf("lat %q is not a number of degrees", lat), Parameter: "lat"}
	}
	return [2]float64{x, y}, nil
}

// PhotoReader reads a photo as ctx's viewer may see it (photo.ViewerOf):
// a withheld photo is found by an editor's read only.
type PhotoReader interface {
	Photo(ctx context.Context, id string) (*photo.Photo, error)
}

// ReadPhoto reads photo id for the request, as its viewer may see it
// (a withheld photo is found on editorial routes by an editor alone: see
// session.Guard.Viewing); what an editor is answered about a withheld
// photo no cache keeps (PrivateIfWithheld).
func ReadPhoto(w http.ResponseWriter, r *http.Request, photos PhotoReader, id string) (*photo.Photo, error) {
	p, err := photos.Photo(r.Context(), id)
	if err == nil {
		PrivateIfWithheld(w, p)
	}
	return p, err
}

// PrivateIfWithheld keeps an answer about p from every cache when p is
// withheld: only an editor reads it (photo.Viewer), and no one else may
// be handed their copy.
func PrivateIfWithheld(w http.ResponseWriter, p *photo.Photo) {
	if p != nil && p.Harm == photo.HarmWithheld {
		w.Header().Set("Cache-Control", "private, no-store")
	}
}

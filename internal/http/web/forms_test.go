package web

import (
	"context"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/syriamap/syriamap/internal/photo"
)

func TestTypedPlaceID(t *testing.T) {
	for in, want := range map[string]string{
		"ocha:C2320":   "ocha:C2320",
		"  gn:170063 ": "gn:170063",
		"Zamalka — town, Rif Dimashq [ocha:C2320]": "ocha:C2320",
		"Zamalka [ ocha:C2320 ]":                   "ocha:C2320",
		"a name without an id":                     "a name without an id",
	} {
		if got := TypedPlaceID(in); got != want {
			t.Errorf("TypedPlaceID(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFormPoint(t *testing.T) {
	for _, tt := range []struct {
		lon, lat string
		want     [2]float64
		param    string // the field named by the error, "" for none
	}{
		{"36.5", " 33.25 ", [2]float64{36.5, 33.25}, ""},
		{"-0.5", ".5", [2]float64{-0.5, 0.5}, ""},
		{"0x1p5", "33", [2]float64{}, "lon"}, // what strconv takes besides a decimal (photo.ParseDecimal)
		{"east", "33", [2]float64{}, "lon"},
		{"36", "", [2]float64{}, "lat"},
	} {
		got, err := FormPoint(tt.lon, tt.lat)
		var pe *photo.Error
		switch {
		case tt.param == "" && (err != nil || got != tt.want):
			t.Errorf("FormPoint(%q, %q) = %v, %v; want %v", tt.lon, tt.lat, got, err, tt.want)
		case tt.param != "" && (!asError(err, &pe) || pe.Parameter != tt.param || pe.Code != photo.EInvalid):
			t.Errorf("FormPoint(%q, %q): %v, want an EInvalid error naming %s", tt.lon, tt.lat, err, tt.param)
		}
	}
}

func asError(err error, pe **photo.Error) bool {
	e, ok := err.(*photo.Error)
	*pe = e
	return ok
}

func TestFilterQueryAndOffset(t *testing.T) {
	q := url.Values{"agency": {" AFP ", ""}, "offset": {"50"}, "group": {"aleppo"}, "q": {"smoke"}}
	f := FilterQuery(q)
	if got := f.Encode(); got != "agency=AFP&q=smoke" {
		t.Errorf("FilterQuery: %q, want the filters alone, trimmed, empty values dropped", got)
	}
	if got := WithOffset(f, 100); got != "?agency=AFP&offset=100&q=smoke" {
		t.Errorf("WithOffset 100: %q", got)
	}
	if got := WithOffset(url.Values{}, 0); got != "" {
		t.Errorf("WithOffset of nothing: %q, want \"\"", got)
	}
	if f.Get("offset") != "" {
		t.Error("WithOffset changed the filters it was given")
	}
}

// photos is a PhotoReader of one photo of each harm mark.
type photos map[string]*photo.Photo

func (ps photos) Photo(_ context.Context, id string) (*photo.Photo, error) {
	if p, ok := ps[id]; ok {
		return p, nil
	}
	return nil, photo.Errorf(photo.ENotFound, "no photo %s", id)
}

// TestReadPhoto: what an editor reads of a withheld photo no cache keeps;
// of any other photo, the route's own caching stands.
func TestReadPhoto(t *testing.T) {
	ps := photos{"w": {ID: "w", Harm: photo.HarmWithheld}, "g": {ID: "g", Harm: photo.HarmGraphic}, "p": {ID: "p"}}
	for id, want := range map[string]string{"w": "private, no-store", "g": "", "p": "", "gone": ""} {
		w := httptest.NewRecorder()
		p, err := ReadPhoto(w, httptest.NewRequest("GET", "/", nil), ps, id)
		if (err == nil) != (id != "gone") || (err == nil && p.ID != id) {
			t.Errorf("%s: %v %v", id, p, err)
		}
		if got := w.Header().Get("Cache-Control"); got != want {
			t.Errorf("%s: Cache-Control %q, want %q", id, got, want)
		}
	}
}

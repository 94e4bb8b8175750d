package httpapi

import (
	"bytes"
	"net/http"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/photo"
)

// photoGeoJSON serves one photo as a GeoJSON Feature, with what lists
// leave out: the alternatives, the geocoder's own choice, the correction and
// the sources.
func (s *Server) photoGeoJSON(w http.ResponseWriter, r *http.Request) {
	id := strings.TrimSuffix(mux.Vars(r)["id"], ".geojson")
	p, err := s.photoFor(w, r, id)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	// Its own validator: the photo's version, which a write sends back as
	// If-Match (see versions.go). What else its answer depends on — who
	// asks — is in Vary.
	h := w.Header()
	h.Add("Vary", "Accept, Cookie, Authorization")
	h.Set("Cache-Control", s.conditional.CacheControl(s.guard.IsEditor(r)))
	if web.NotModified(w, r, photo.ETag(photo.VersionPhoto, p.Rev)) {
		return
	}
	// An editor sees the camera's GPS point: their answer is theirs
	// alone, and no cache keeps it.
	gps := s.showsGPS(r)
	if gps && !s.publicGPS {
		w.Header().Set("Cache-Control", "private, no-store")
	}
	body, err := s.photoFeature(r, p, gps)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/geo+json")
	w.Write(append(body, '\n'))
}

// showsGPS reports whether the request may see where a camera's GPS put
// the photographer: with --public-gps anyone, otherwise an editor.
func (s *Server) showsGPS(r *http.Request) bool { return s.publicGPS || s.guard.IsEditor(r) }

// featureOf is a photo as lists read it.
func featureOf(p *photo.Photo) photo.Feature {
	reviewedAt := ""
	if p.Review != photo.ReviewAutomatic && !p.ReviewedAt.IsZero() {
		reviewedAt = p.ReviewedAt.UTC().Format(time.RFC3339)
	}
	return photo.Feature{ID: p.ID, Caption: p.Caption, Date: p.Date, DateSource: p.DateSource, Photographer: p.Photographer, Agency: p.Agency,
		PlaceID: p.Place.ID, PlaceName: p.Place.Name, PlaceKind: p.Place.Kind, Governorate: p.Place.Governorate,
		Precision: p.Place.Precision, Confidence: p.Place.Confidence, Mention: p.Place.Mention, ImageURL: p.ImageURL,
		ImagePath: p.ImagePath, Lon: p.Place.Lon, Lat: p.Place.Lat, Located: p.Place.Located,
		Review: p.Review, ReviewedBy: p.ReviewedBy, ReviewedAt: reviewedAt, ImageFile: p.ImageFile, Check: p.Check,
		Reuse: p.Reuse, Graphic: p.Harm == photo.HarmGraphic, Events: p.Events, Verified: p.Verified}
}

// photoFeature is one photo as a GeoJSON Feature with everything known
// about it; gps writes the camera's GPS point.
func (s *Server) photoFeature(r *http.Request, p *photo.Photo, gps bool) ([]byte, error) {
	ft := featureOf(p)
	// The same Feature as in lists, through the same encoder, with the
	// photo's details added to its properties.
	details := map[string]any{"note": p.Place.Note, "alternatives": nonNilAlternatives(p.Place.Alternatives),
		"geocoded": placeJSON(p.Geocoded), "created": p.Created, "updated": p.Updated}
	if c := p.Correction; c != nil {
		details["correction"] = map[string]any{"place_id": c.PlaceID, "lon": c.Lon, "lat": c.Lat, "note": c.Note, "created": c.Created}
	}
	var sources []map[string]any
	for _, src := range p.Sources {
		sources = append(sources, map[string]any{"file": web.SourceName(src.File), "line": src.Line, "id": src.Ref, "source": src.Label})
	}
	details["sources"] = sources
	more, err := web.MarshalJSON(details)
	if err != nil {
		return nil, err
	}
	feature := web.AppendFeature(nil, &ft, s.links(s.base(r), &ft), gps)
	feature = append(feature[:len(feature)-2], ',') // the properties' and the Feature's "}}"
	return append(append(feature, bytes.TrimSpace(more)[1:]...), '}'), nil
}

func nonNilAlternatives(a []photo.Alternative) []photo.Alternative {
	if a == nil {
		return []photo.Alternative{}
	}
	return a
}

// placeJSON is a place as the API shows it.
func placeJSON(p photo.Place) map[string]any {
	m := map[string]any{"place_id": p.ID, "place_name": p.Name, "place_kind": p.Kind, "governorate": p.Governorate,
		"country": p.Country, "precision": p.Precision, "confidence": p.Confidence, "mention": p.Mention, "note": p.Note}
	if p.Located {
		m["lon"], m["lat"] = web.Round6(p.Lon), web.Round6(p.Lat)
	}
	return m
}

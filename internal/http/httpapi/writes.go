package httpapi

import (
	"context"
	"errors"
	"net/http"

	"github.com/syriamap/syriamap/internal/http/session"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/photo"
)

// What every feature's writes share: the version a write expects, the
// version its answer names, and the answer to a page's form that met a
// newer version (the review's stale page).

// expecting is session.Expecting, as the routes spell it.
var expecting = session.Expecting

// tagPhoto sets a write's answer's ETag to photo id's version now, for
// the next write to send back.
func (s *Server) tagPhoto(w http.ResponseWriter, r *http.Request, id string) {
	if p, err := s.db.Photo(r.Context(), id); err == nil {
		w.Header().Set("ETag", photo.ETag(photo.VersionPhoto, p.Rev))
	}
}

// versionStore reads the versions a write's answer names.
type versionStore interface {
	PlaceVersion(ctx context.Context, id string) (int64, error)
}

// tagPlace sets a write's answer's ETag to the added place id's version.
func (s *Server) tagPlace(w http.ResponseWriter, r *http.Request, id string) {
	if v, err := s.db.PlaceVersion(r.Context(), id); err == nil {
		w.Header().Set("ETag", photo.ETag(photo.VersionPlace, v))
	}
}

// Error is the Kit's, but for a page's form whose write met a newer
// version: its answer is a page that shows what changed since, and offers
// to keep the editor's change or redo it.
func (s *Server) Error(w http.ResponseWriter, r *http.Request, err error) {
	var pe *photo.Error
	if errors.As(err, &pe) && pe.Code == photo.EStale && web.IsForm(r) {
		if st, ok := pe.Current.(photo.Stale); ok && st.Kind == photo.VersionPhoto {
			s.review.StalePage(w, r, st)
			return
		}
	}
	s.Kit.Error(w, r, err)
}

// decodeBody reads the write API's JSON body (see web.DecodeJSON).
func decodeBody(r *http.Request, v any) error { return web.DecodeWrite(r, v) }

// imageStore is what the image handlers' guard asks of the archive.
type imageStore interface {
	WithheldFile(ctx context.Context, sha, path string) (bool, error)
}

// photoFor reads photo id for the request, as its viewer may see it
// (web.ReadPhoto).
func (s *Server) photoFor(w http.ResponseWriter, r *http.Request, id string) (*photo.Photo, error) {
	return web.ReadPhoto(w, r, s.db, id)
}

// imageWithheld tells the image handlers whether an image (an imported
// file by its hash, or a media file by its path) is only withheld
// photos': hidden then from all but editors, and private to them.
func (s *Server) imageWithheld(r *http.Request, sha, path string) (hidden, private bool, err error) {
	withheld, err := s.db.WithheldFile(r.Context(), sha, path)
	if err != nil || !withheld {
		return false, false, err
	}
	editor := s.guard.IsEditor(r)
	return !editor, editor, nil
}

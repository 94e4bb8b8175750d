package httpapi

import (
	"net/http"
	"os"
	"time"

	"github.com/gorilla/mux"

	"github.com/syriamap/syriamap/internal/imagery"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/web"
)

// imageSmall and imageLarge serve an imported image's imagery.Derivatives.
func (s *Server) imageSmall(w http.ResponseWriter, r *http.Request) {
	s.imageDerivative(w, r, imagery.SmallSide)
}
func (s *Server) imageLarge(w http.ResponseWriter, r *http.Request) {
	s.imageDerivative(w, r, imagery.LargeSide)
}

func (s *Server) imageDerivative(w http.ResponseWriter, r *http.Request, side int) {
	sha := mux.Vars(r)["sha"]
	if !imagery.IsSHA256(sha) {
		s.error(w, r, web.NotFound("no image %s", sha))
		return
	}
	body, err := s.derivatives.Get(r.Context(), sha, side, true, func() (*os.File, int, error) {
		f, st, err := s.images.Open(r.Context(), sha)
		if err != nil {
			return nil, 0, err
		}
		// The same size and time do not make the same content: a file
		// swapped in place would be served under the old hash, and
		// cached for a year. Its hash is checked before it is decoded.
		if err := imagery.CheckHash(f, sha); err != nil {
			f.Close()
			return nil, 0, err
		}
		// The orientation its import read: the file's metadata need not
		// be read again.
		return f, st.Orientation, nil
	})
	if err != nil {
		s.error(w, r, err)
		return
	}
	// The address holds the content's hash: it never changes.
	imagery.Serve(w, r, body, "public, max-age=31536000, immutable", time.Time{})
}

// imageOriginal serves an imported image file as it is, metadata and all,
// when the server was started with --serve-originals.
func (s *Server) imageOriginal(w http.ResponseWriter, r *http.Request) {
	if !s.images.Originals() {
		s.error(w, r, photo.Errorf(photo.EForbidden, "original image files are not served: they may carry the photographer's GPS position; start the server with --serve-originals to serve them"))
		return
	}
	sha := mux.Vars(r)["sha"]
	f, _, err := s.images.Open(r.Context(), sha)
	if err != nil {
		s.error(w, r, err)
		return
	}
	defer f.Close()
	if err := imagery.CheckHash(f, sha); err != nil {
		s.error(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "image/jpeg")
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	web.ServeContent(w, r, "", time.Time{}, f)
}

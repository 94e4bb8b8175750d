package httpapi

import (
	"fmt"
	_ "image/gif" // decoders for thumbnails
	_ "image/png"
	"net/http"
	"os"

	"github.com/gorilla/mux"

	"github.com/syriamap/syriamap/internal/imagery"
	"github.com/syriamap/syriamap/internal/web"
)

// mediaFile serves an image from --media as /images serves imported ones:
// its large derivative (upright, no metadata), or with --serve-originals
// the file as it is. Anything that is not a JPEG, PNG, GIF or WebP image
// is refused, and what is served carries a CSP that lets it run nothing
// even if a browser were to take it for a page.
func (s *Server) mediaFile(w http.ResponseWriter, r *http.Request) {
	if !s.images.Originals() {
		s.mediaDerivative(w, r, imagery.LargeSide)
		return
	}
	if s.media == nil {
		s.error(w, r, web.NotFound("the server was started without --media"))
		return
	}
	p := mux.Vars(r)["path"]
	f, st, err := s.media.Open(p)
	if err != nil {
		s.error(w, r, err)
		return
	}
	defer f.Close()
	ct, err := imagery.SniffImage(f, p)
	if err != nil {
		s.error(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", ct)
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	h.Set("Cache-Control", "public, max-age=3600")
	web.ServeContent(w, r, st.Name(), st.ModTime(), f)
}

// thumbnail serves an image from --media shrunk to fit a square of size
// pixels (size=240 by default, 32 to 1024), for popups and lists.
func (s *Server) thumbnail(w http.ResponseWriter, r *http.Request) {
	size, err := web.IntParam(r.URL.Query(), "size", 240, 32, 1024)
	if err != nil {
		s.error(w, r, err)
		return
	}
	s.mediaDerivative(w, r, size)
}

// mediaDerivative serves the derivative of a --media image made to fit
// side: made by the same pipeline as an imported image's, and kept in
// memory under the file's path, size and time.
func (s *Server) mediaDerivative(w http.ResponseWriter, r *http.Request, side int) {
	if s.media == nil {
		s.error(w, r, web.NotFound("the server was started without --media"))
		return
	}
	p := mux.Vars(r)["path"]
	f, st, err := s.media.Open(p)
	if err != nil {
		s.error(w, r, err)
		return
	}
	f.Close()
	key := fmt.Sprintf("media:%s:%d:%d", p, st.Size(), st.ModTime().UnixNano())
	body, err := s.derivatives.Get(r.Context(), key, side, false, func() (*os.File, int, error) {
		f, _, err := s.media.Open(p)
		if err != nil {
			return nil, 0, err
		}
		if _, err := imagery.SniffImage(f, p); err != nil {
			f.Close()
			return nil, 0, err
		}
		return f, 0, nil // the orientation is read from the file
	})
	if err != nil {
		s.error(w, r, err)
		return
	}
	imagery.Serve(w, r, body, "public, max-age=3600", st.ModTime())
}

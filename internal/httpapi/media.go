package httpapi

import (
	"fmt"
	_ "image/gif" // decoders for thumbnails
	_ "image/png"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"strings"

	"github.com/gorilla/mux"

	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/web"
)

// mediaDir serves photo images from one folder and nothing outside it:
// os.Root refuses any path that leaves the folder, by .. or by a link.
type mediaDir struct {
	root *os.Root
}

func openMedia(dir string) (*mediaDir, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("--media %s: %w", dir, err)
	}
	return &mediaDir{root: root}, nil
}

// open opens a file under the folder by its slash-separated path. A path
// with a ".." segment is refused outright; os.Root also refuses links
// that lead out.
func (m *mediaDir) open(p string) (*os.File, fs.FileInfo, error) {
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." {
			return nil, nil, photo.Errorf(photo.EInvalid, "the image path leaves the media folder: %s", p)
		}
	}
	clean := strings.TrimPrefix(path.Clean("/"+p), "/")
	if clean == "" {
		return nil, nil, web.NotFound("no image %s", p)
	}
	f, err := m.root.Open(clean)
	if err != nil {
		return nil, nil, web.NotFound("no image %s", p)
	}
	st, err := f.Stat()
	if err != nil || st.IsDir() {
		f.Close()
		return nil, nil, web.NotFound("no image %s", p)
	}
	return f, st, nil
}

// imageTypes are the only types /media serves, by the content's sniffed
// type (never the name's extension): an HTML, SVG or script file in the
// media folder would otherwise run as the site itself.
var imageTypes = map[string]bool{"image/jpeg": true, "image/png": true, "image/gif": true, "image/webp": true}

// mediaFile serves an image from --media as /images serves imported ones:
// its large derivative (upright, no metadata), or with --serve-originals
// the file as it is. Anything that is not a JPEG, PNG, GIF or WebP image
// is refused, and what is served carries a CSP that lets it run nothing
// even if a browser were to take it for a page.
func (s *Server) mediaFile(w http.ResponseWriter, r *http.Request) {
	if !s.images.originals {
		s.mediaDerivative(w, r, largeSide)
		return
	}
	if s.media == nil {
		s.error(w, r, web.NotFound("the server was started without --media"))
		return
	}
	p := mux.Vars(r)["path"]
	f, st, err := s.media.open(p)
	if err != nil {
		s.error(w, r, err)
		return
	}
	defer f.Close()
	ct, err := sniffImage(f, p)
	if err != nil {
		s.error(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", ct)
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	h.Set("Cache-Control", "public, max-age=3600")
	serveContent(w, r, st.Name(), st.ModTime(), f)
}

// sniffImage returns the image type of f's content, or refuses it, and
// leaves f at its start.
func sniffImage(f *os.File, p string) (string, error) {
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	ct := http.DetectContentType(head[:n])
	if !imageTypes[ct] {
		return "", photo.Errorf(photo.EForbidden, "only images (JPEG, PNG, GIF, WebP) are served from the media folder: %s", p)
	}
	_, err := f.Seek(0, io.SeekStart)
	return ct, err
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
	f, st, err := s.media.open(p)
	if err != nil {
		s.error(w, r, err)
		return
	}
	f.Close()
	key := fmt.Sprintf("media:%s:%d:%d", p, st.Size(), st.ModTime().UnixNano())
	body, err := s.derivatives.get(r.Context(), key, side, false, func() (*os.File, error) {
		f, _, err := s.media.open(p)
		if err != nil {
			return nil, err
		}
		if _, err := sniffImage(f, p); err != nil {
			f.Close()
			return nil, err
		}
		return f, nil
	})
	if err != nil {
		s.error(w, r, err)
		return
	}
	serveDerivative(w, r, body, "public, max-age=3600", st.ModTime())
}

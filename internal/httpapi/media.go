package httpapi

import (
	"bytes"
	"fmt"
	"image"
	_ "image/gif" // decoders for thumbnails
	"image/jpeg"
	_ "image/png"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/mux"
	"golang.org/x/image/draw"

	"github.com/syriamap/syriamap/internal/photo"
)

// mediaDir serves photo images from one folder and nothing outside it:
// os.Root refuses any path that leaves the folder, by .. or by a link.
type mediaDir struct {
	root   *os.Root
	mu     sync.Mutex
	thumbs map[string]thumb // by path, size and modification time
}

type thumb struct {
	jpeg []byte
	mod  time.Time
}

// thumbCacheSize bounds the thumbnails kept in memory.
const thumbCacheSize = 512

func openMedia(dir string) (*mediaDir, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("--media %s: %w", dir, err)
	}
	return &mediaDir{root: root, thumbs: map[string]thumb{}}, nil
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
		return nil, nil, notFound("no image %s", p)
	}
	f, err := m.root.Open(clean)
	if err != nil {
		return nil, nil, notFound("no image %s", p)
	}
	st, err := f.Stat()
	if err != nil || st.IsDir() {
		f.Close()
		return nil, nil, notFound("no image %s", p)
	}
	return f, st, nil
}

// imageTypes are the only types /media serves, by the content's sniffed
// type (never the name's extension): an HTML, SVG or script file in the
// media folder would otherwise run as the site itself.
var imageTypes = map[string]bool{"image/jpeg": true, "image/png": true, "image/gif": true, "image/webp": true}

// mediaFile serves an image from --media. Anything that is not a JPEG,
// PNG, GIF or WebP image is refused, and what is served carries a CSP that
// lets it run nothing even if a browser were to take it for a page.
func (s *Server) mediaFile(w http.ResponseWriter, r *http.Request) {
	if s.media == nil {
		s.error(w, r, notFound("the server was started without --media"))
		return
	}
	p := mux.Vars(r)["path"]
	f, st, err := s.media.open(p)
	if err != nil {
		s.error(w, r, err)
		return
	}
	defer f.Close()
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	ct := http.DetectContentType(head[:n])
	if !imageTypes[ct] {
		s.error(w, r, photo.Errorf(photo.EForbidden, "only images (JPEG, PNG, GIF, WebP) are served from the media folder: %s", p))
		return
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		s.error(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", ct)
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	h.Set("Cache-Control", "public, max-age=3600")
	http.ServeContent(w, r, st.Name(), st.ModTime(), f)
}

// thumbnail serves an image from --media shrunk to fit a square of size
// pixels (size=240 by default, 32 to 1024), as JPEG, for popups and lists.
func (s *Server) thumbnail(w http.ResponseWriter, r *http.Request) {
	if s.media == nil {
		s.error(w, r, notFound("the server was started without --media"))
		return
	}
	size, err := intParam(r.URL.Query(), "size", 240, 32, 1024)
	if err != nil {
		s.error(w, r, err)
		return
	}
	p := mux.Vars(r)["path"]
	f, st, err := s.media.open(p)
	if err != nil {
		s.error(w, r, err)
		return
	}
	defer f.Close()
	key := p + "\x00" + strconv.Itoa(size)
	s.media.mu.Lock()
	t, ok := s.media.thumbs[key]
	s.media.mu.Unlock()
	if !ok || !t.mod.Equal(st.ModTime()) {
		img, _, err := image.Decode(f)
		if err != nil {
			s.error(w, r, photo.Errorf(photo.EForbidden, "not an image syriamap can read (JPEG, PNG, GIF): %s", p))
			return
		}
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, shrink(img, size), &jpeg.Options{Quality: 80}); err != nil {
			s.error(w, r, err)
			return
		}
		t = thumb{jpeg: buf.Bytes(), mod: st.ModTime()}
		s.media.mu.Lock()
		if len(s.media.thumbs) >= thumbCacheSize {
			clear(s.media.thumbs)
		}
		s.media.thumbs[key] = t
		s.media.mu.Unlock()
	}
	w.Header().Set("Content-Type", "image/jpeg")
	w.Header().Set("Cache-Control", "public, max-age=3600")
	http.ServeContent(w, r, "thumb.jpg", t.mod, bytes.NewReader(t.jpeg))
}

// shrink scales img to fit a size×size square, keeping its proportions;
// smaller images are kept as they are.
func shrink(img image.Image, size int) image.Image {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if w <= size && h <= size {
		return img
	}
	if w >= h {
		w, h = size, max(1, h*size/w)
	} else {
		w, h = max(1, w*size/h), size
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.CatmullRom.Scale(dst, dst.Bounds(), img, b, draw.Over, nil)
	return dst
}

package httpapi

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/jpeg"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/mux"

	"github.com/syriamap/syriamap/internal/imagemeta"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/store"
)

// Imported image files are served by the hash of their content, as
// derivatives only: a small one (320 px) for lists and popups and a large
// one (1,280 px) for the photo page, turned upright by the EXIF
// orientation and re-encoded, so that they carry none of the original's
// EXIF, XMP or IPTC (a photographer's GPS in a file can endanger them).
// The original is served only when the server was started with
// --serve-originals.

// The derivative sizes: the longer side, in pixels.
const (
	smallSide = 320
	largeSide = 1280
)

// imageFiles opens imported image files and keeps their derivatives.
type imageFiles struct {
	db interface {
		FileOf(ctx context.Context, sha string) (string, store.FileState, error)
		MediaRoots(ctx context.Context) ([]string, error)
	}
	media     string // --media, also served from
	originals bool
	cacheDir  string // "" keeps derivatives in memory only
	mu        sync.Mutex
	mem       map[string][]byte // by sha and size
	memBytes  int
}

// memCacheBytes bounds the derivatives kept in memory.
const memCacheBytes = 64 << 20

// open opens the image file with hash sha, through the folder it was
// imported from (or --media): os.Root refuses a path that leaves it, by
// .. or by a link. A file changed on disk since its import is not served:
// its hash, and so its links, would be wrong.
func (m *imageFiles) open(ctx context.Context, sha string) (*os.File, error) {
	if !isSHA256(sha) {
		return nil, notFound("no image %s", sha)
	}
	path, st, err := m.db.FileOf(ctx, sha)
	if err != nil {
		return nil, err
	}
	roots, err := m.db.MediaRoots(ctx)
	if err != nil {
		return nil, err
	}
	if m.media != "" {
		if abs, err := filepath.Abs(m.media); err == nil {
			roots = append(roots, abs)
		}
	}
	for _, root := range roots {
		rel, err := filepath.Rel(root, path)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
			continue
		}
		r, err := os.OpenRoot(root)
		if err != nil {
			continue
		}
		f, err := r.Open(rel)
		r.Close()
		if err != nil {
			return nil, notFound("the image file of %s cannot be read: %v", sha[:12], unwrapPathError(err))
		}
		fi, err := f.Stat()
		if err != nil || fi.Size() != st.Size || !fi.ModTime().UTC().Equal(st.ModTime) {
			f.Close()
			return nil, photo.Errorf(photo.EConflict, "the image file %s changed on disk since it was imported; import it again", filepath.Base(path))
		}
		return f, nil
	}
	return nil, notFound("the image file of %s is outside the folders images were imported from", sha[:12])
}

// isSHA256 reports whether s is a SHA-256 in lower-case hex.
func isSHA256(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !('0' <= s[i] && s[i] <= '9' || 'a' <= s[i] && s[i] <= 'f') {
			return false
		}
	}
	return true
}

func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// imageSmall and imageLarge serve an imported image's derivatives.
func (s *Server) imageSmall(w http.ResponseWriter, r *http.Request) {
	s.imageDerivative(w, r, smallSide)
}
func (s *Server) imageLarge(w http.ResponseWriter, r *http.Request) {
	s.imageDerivative(w, r, largeSide)
}

func (s *Server) imageDerivative(w http.ResponseWriter, r *http.Request, side int) {
	sha := mux.Vars(r)["sha"]
	body, err := s.images.derivative(r.Context(), sha, side, s.lane)
	if err != nil {
		s.error(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "image/jpeg")
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	// The address holds the content's hash: it never changes.
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
}

// derivative returns the JPEG of the image sha made to fit side, from the
// caches or made now (in the lane: decoding a 24-megapixel JPEG takes a
// core for a good part of a second).
func (m *imageFiles) derivative(ctx context.Context, sha string, side int, l *lane) ([]byte, error) {
	if !isSHA256(sha) {
		return nil, notFound("no image %s", sha)
	}
	key := fmt.Sprintf("%s-%d", sha, side)
	m.mu.Lock()
	body, ok := m.mem[key]
	m.mu.Unlock()
	if ok {
		return body, nil
	}
	cached := ""
	if m.cacheDir != "" {
		cached = filepath.Join(m.cacheDir, sha[:2], key+".jpg")
		if b, err := os.ReadFile(cached); err == nil {
			m.remember(key, b)
			return b, nil
		}
	}
	f, err := m.open(ctx, sha)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	leave, err := l.admit(ctx)
	if err != nil {
		return nil, err
	}
	defer leave()
	md, err := imagemeta.Read(f)
	if err != nil {
		return nil, photo.Errorf(photo.EConflict, "the image file of %s cannot be read: %v", sha[:12], err)
	}
	if _, err := f.Seek(0, 0); err != nil {
		return nil, err
	}
	img, err := jpeg.Decode(f)
	if err != nil {
		return nil, photo.Errorf(photo.EConflict, "the image file of %s cannot be decoded: %v", sha[:12], err)
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, orient(shrink(img, side), md.EXIF.Orientation), &jpeg.Options{Quality: 82}); err != nil {
		return nil, err
	}
	body = buf.Bytes()
	m.remember(key, body)
	if cached != "" {
		// Written whole, then renamed: a reader never sees half a file.
		if err := os.MkdirAll(filepath.Dir(cached), 0o755); err == nil {
			tmp := cached + ".tmp"
			if os.WriteFile(tmp, body, 0o644) == nil {
				os.Rename(tmp, cached)
			}
		}
	}
	return body, nil
}

func (m *imageFiles) remember(key string, b []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.memBytes+len(b) > memCacheBytes {
		clear(m.mem)
		m.memBytes = 0
	}
	m.mem[key] = b
	m.memBytes += len(b)
}

// imageOriginal serves an imported image file as it is, metadata and all,
// when the server was started with --serve-originals.
func (s *Server) imageOriginal(w http.ResponseWriter, r *http.Request) {
	if !s.images.originals {
		s.error(w, r, photo.Errorf(photo.EForbidden, "original image files are not served: they may carry the photographer's GPS position; start the server with --serve-originals to serve them"))
		return
	}
	sha := mux.Vars(r)["sha"]
	f, err := s.images.open(r.Context(), sha)
	if err != nil {
		s.error(w, r, err)
		return
	}
	defer f.Close()
	h := w.Header()
	h.Set("Content-Type", "image/jpeg")
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	http.ServeContent(w, r, "", time.Time{}, f)
}

// orient turns img upright as its EXIF orientation (1–8) says.
func orient(img image.Image, o int) image.Image {
	if o <= 1 || o > 8 {
		return img
	}
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	dw, dh := w, h
	if o >= 5 {
		dw, dh = h, w
	}
	dst := image.NewRGBA(image.Rect(0, 0, dw, dh))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var dx, dy int
			switch o {
			case 2: // mirrored
				dx, dy = w-1-x, y
			case 3: // turned 180°
				dx, dy = w-1-x, h-1-y
			case 4: // mirrored upside down
				dx, dy = x, h-1-y
			case 5: // mirrored, turned 90° anticlockwise
				dx, dy = y, x
			case 6: // turned 90° clockwise to show
				dx, dy = h-1-y, x
			case 7: // mirrored, turned 90° clockwise
				dx, dy = h-1-y, w-1-x
			case 8: // turned 90° anticlockwise to show
				dx, dy = y, w-1-x
			}
			dst.Set(dx, dy, img.At(b.Min.X+x, b.Min.Y+y))
		}
	}
	return dst
}

package httpapi

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/mux"
	"golang.org/x/sync/singleflight"

	"github.com/syriamap/syriamap/internal/imagemeta"
	"github.com/syriamap/syriamap/internal/imaging"
	"github.com/syriamap/syriamap/internal/lane"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/web"
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

// imageFiles opens imported image files.
type imageFiles struct {
	db interface {
		FileOf(ctx context.Context, sha string) (string, photo.FileState, error)
		MediaRoots(ctx context.Context) ([]string, error)
	}
	media     string // --media, also served from
	originals bool
}

// open opens the image file with hash sha, through the folder it was
// imported from (or --media): os.Root refuses a path that leaves it, by
// .. or by a link. A file changed on disk since its import is not served:
// its hash, and so its links, would be wrong.
func (m *imageFiles) open(ctx context.Context, sha string) (*os.File, error) {
	if !isSHA256(sha) {
		return nil, web.NotFound("no image %s", sha)
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
			return nil, web.NotFound("the image file of %s cannot be read: %v", sha[:12], unwrapPathError(err))
		}
		fi, err := f.Stat()
		if err != nil || fi.Size() != st.Size || !fi.ModTime().UTC().Equal(st.ModTime) {
			f.Close()
			return nil, photo.Errorf(photo.EConflict, "the image file %s changed on disk since it was imported; import it again", filepath.Base(path))
		}
		return f, nil
	}
	return nil, web.NotFound("the image file of %s is outside the folders images were imported from", sha[:12])
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
	if !isSHA256(sha) {
		s.error(w, r, web.NotFound("no image %s", sha))
		return
	}
	body, err := s.derivatives.get(r.Context(), sha, side, true, func() (*os.File, error) {
		f, err := s.images.open(r.Context(), sha)
		if err != nil {
			return nil, err
		}
		// The same size and time do not make the same content: a file
		// swapped in place would be served under the old hash, and
		// cached for a year. Its hash is checked before it is decoded.
		if err := checkHash(f, sha); err != nil {
			f.Close()
			return nil, err
		}
		return f, nil
	})
	if err != nil {
		s.error(w, r, err)
		return
	}
	// The address holds the content's hash: it never changes.
	serveDerivative(w, r, body, "public, max-age=31536000, immutable", time.Time{})
}

// serveDerivative serves a derivative's JPEG, sandboxed should a browser
// take it for a page.
func serveDerivative(w http.ResponseWriter, r *http.Request, body []byte, cacheControl string, mod time.Time) {
	h := w.Header()
	h.Set("Content-Type", "image/jpeg")
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	h.Set("Cache-Control", cacheControl)
	serveContent(w, r, "", mod, bytes.NewReader(body))
}

// checkHash reports a conflict when the file's content is not sha's, and
// leaves it at its start.
func checkHash(f *os.File, sha string) error {
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return err
	}
	if hex.EncodeToString(h.Sum(nil)) != sha {
		return photo.Errorf(photo.EConflict, "the image file %s changed on disk since it was imported (its size and time are the same, its content is not); import it again", filepath.Base(f.Name()))
	}
	_, err := f.Seek(0, io.SeekStart)
	return err
}

// derivatives makes the JPEGs served in place of image files and keeps
// them: in memory (64 MB) and, for imported files, whose address is their
// content's hash, on disk. Decodes run in the lane for heavy work and
// within the imaging pipeline's memory budget; requests for the same
// derivative at once share one decode, and the small size is made from
// the large one, so an image is decoded at full size once.
type derivatives struct {
	pipeline *imaging.Pipeline
	lane     *lane.Lane
	dir      string // "" keeps them in memory only
	group    singleflight.Group
	mu       sync.Mutex
	mem      map[string][]byte
	memBytes int
}

// deriveTimeout bounds the making of one derivative, waits included.
const deriveTimeout = time.Minute

// memCacheBytes bounds the derivatives kept in memory.
const memCacheBytes = 64 << 20

// get returns the derivative of the image key names made to fit side,
// from the caches or made now from the file open gives. persist keeps it
// on disk (for keys that name content).
func (d *derivatives) get(ctx context.Context, key string, side int, persist bool, open func() (*os.File, error)) ([]byte, error) {
	name := fmt.Sprintf("%s-%d", key, side)
	d.mu.Lock()
	body, ok := d.mem[name]
	d.mu.Unlock()
	if ok {
		return body, nil
	}
	cached := ""
	if persist && d.dir != "" {
		cached = filepath.Join(d.dir, key[:2], name+".jpg")
		if b, err := os.ReadFile(cached); err == nil {
			d.remember(name, b)
			return b, nil
		}
	}
	v, err, _ := d.group.Do(name, func() (any, error) {
		// The work is shared by every request waiting for it: one client
		// leaving does not end it for the others.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), deriveTimeout)
		defer cancel()
		var img image.Image
		if side < largeSide {
			// From the large derivative: 1.6 megapixels at most to decode.
			// It is had before a slot is taken: making it takes one.
			large, err := d.get(ctx, key, largeSide, persist, open)
			if err != nil {
				return nil, err
			}
			leave, err := d.lane.Wait(ctx)
			if err != nil {
				return nil, err
			}
			defer leave()
			if img, err = d.pipeline.Decode(ctx, bytes.NewReader(large), side, 1); err != nil {
				return nil, err
			}
		} else {
			// Everything that reads the file whole (its hash, its pixels)
			// runs in the lane. Images wait for it however many wait,
			// rather than be refused: a list page asks for fifty
			// thumbnails at once, and a waiting request costs nothing
			// but its goroutine.
			leave, err := d.lane.Wait(ctx)
			if err != nil {
				return nil, err
			}
			defer leave()
			f, err := open()
			if err != nil {
				return nil, err
			}
			defer f.Close()
			orientation := 1
			if md, err := imagemeta.Read(f); err == nil {
				orientation = md.EXIF.Orientation
			}
			if _, err := f.Seek(0, io.SeekStart); err != nil {
				return nil, err
			}
			if img, err = d.pipeline.Decode(ctx, f, side, orientation); err != nil {
				return nil, err
			}
		}
		body, err := imaging.Encode(img, 82)
		if err != nil {
			return nil, err
		}
		d.remember(name, body)
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
	})
	if err != nil {
		return nil, err
	}
	return v.([]byte), nil
}

func (d *derivatives) remember(key string, b []byte) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.memBytes+len(b) > memCacheBytes {
		clear(d.mem)
		d.memBytes = 0
	}
	d.mem[key] = b
	d.memBytes += len(b)
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
	if err := checkHash(f, sha); err != nil {
		s.error(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "image/jpeg")
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	serveContent(w, r, "", time.Time{}, f)
}

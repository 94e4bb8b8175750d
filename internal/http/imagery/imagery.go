// Package imagery serves photo images safely: the Derivatives made in
// place of image files, and the files of a media folder.
//
// Imported image files are served by the hash of their content, as
// Derivatives only: a small one (320 px) for lists and popups and a large
// one (1,280 px) for the photo page, turned upright by the EXIF
// orientation and re-encoded, so that they carry none of the original's
// EXIF, XMP or IPTC (a photographer's GPS in a file can endanger them).
// The original is served only when the server was started with
// --serve-originals.
package imagery

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/syriamap/syriamap/internal/evidence/imagemeta"
	"github.com/syriamap/syriamap/internal/evidence/originals"
	"github.com/syriamap/syriamap/internal/http/lane"
	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/resize"
	"golang.org/x/sync/singleflight"
)

// The derivative sizes: the longer side, in pixels.
const (
	SmallSide = 320
	LargeSide = 1280
)

// FileStore is what Files reads of the archive: where a file is, and
// the folders images were imported from.
type FileStore interface {
	FileOf(ctx context.Context, sha string) (string, photo.FileState, error)
	MediaRoots(ctx context.Context) ([]string, error)
}

// Files opens imported image files.
type Files struct {
	db        FileStore
	media     string // --media, also served from
	originals bool
	// kept gives the archive's store of originals, read when the file an
	// image was imported from is gone (an upload's); nil reads none.
	kept func() originals.Store
}

// KeptIn makes the files also read from the archive's store of
// originals (store gives it, or nil), when the file an image was
// imported from is gone or cannot be read: an upload's copy is removed
// once it is imported.
func (m *Files) KeptIn(store func() originals.Store) { m.kept = store }

// NewFiles opens the image files db knows, under the folders they were
// imported from and media; originals says whether they are served as
// they are (--serve-originals).
func NewFiles(db FileStore, media string, originals bool) *Files {
	return &Files{db: db, media: media, originals: originals}
}

// Originals reports whether the files are served as they are.
func (m *Files) Originals() bool { return m.originals }

// Media is the media folder the files are also served from.
func (m *Files) Media() string { return m.media }

// Open opens the image file with hash sha, through the folder it was
// imported from (or --media): os.Root refuses a path that leaves it, by
// .. or by a link. A file changed on disk since its import is not served:
// its hash, and so its links, would be wrong.
func (m *Files) Open(ctx context.Context, sha string) (*os.File, photo.FileState, error) {
	if !IsSHA256(sha) {
		return nil, photo.FileState{}, noImage(sha)
	}
	f, st, err := m.openImported(ctx, sha)
	var store originals.Store
	if m.kept != nil {
		store = m.kept()
	}
	if store == nil || photo.ErrorCode(err) != photo.ENotFound || st.Size == 0 {
		return f, st, err
	}
	kept, kerr := openKept(ctx, store, sha)
	if kerr != nil {
		return nil, st, err // the first reason: the file as imported
	}
	return kept, st, nil
}

// openKept opens the original under sha: a folder store's file, or a
// bucket's object copied to a temporary file, removed once open.
func openKept(ctx context.Context, store originals.Store, sha string) (*os.File, error) {
	if d, ok := store.(*originals.Dir); ok {
		return os.Open(d.Path(sha))
	}
	rc, err := store.Open(ctx, sha)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	tmp, err := os.CreateTemp("", "syriamap-original-*")
	if err != nil {
		return nil, err
	}
	os.Remove(tmp.Name())
	if _, err := io.Copy(tmp, rc); err != nil {
		tmp.Close()
		return nil, err
	}
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		tmp.Close()
		return nil, err
	}
	return tmp, nil
}

// openImported opens the image file with hash sha where it was imported
// from (Open).
func (m *Files) openImported(ctx context.Context, sha string) (*os.File, photo.FileState, error) {
	path, st, err := m.db.FileOf(ctx, sha)
	if photo.ErrorCode(err) == photo.ENotFound {
		return nil, st, noFile(sha)
	}
	if err != nil {
		return nil, st, err
	}
	roots, err := m.db.MediaRoots(ctx)
	if err != nil {
		return nil, st, err
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
			return nil, st, web.NotFound("the image file of %s cannot be read: %v", sha[:12], unwrapPathError(err))
		}
		fi, err := f.Stat()
		if err != nil || fi.Size() != st.Size || !fi.ModTime().UTC().Equal(st.ModTime) {
			f.Close()
			return nil, st, photo.Errorf(photo.EConflict, "the image file %s changed on disk since it was imported; import it again", filepath.Base(path))
		}
		return f, st, nil
	}
	return nil, st, web.NotFound("the image file of %s is outside the folders images were imported from", sha[:12])
}

// noFile is the answer for an image file the archive does not have.
func noFile(sha string) error { return web.NotFound("no image file %s in the archive", sha) }

// noImage is the answer for a path the media folder does not have, or
// for what is no image hash.
func noImage(p string) error { return web.NotFound("no image %s", p) }

// IsSHA256 reports whether s is a SHA-256 in lower-case hex.
func IsSHA256(s string) bool {
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

// Serve serves a derivative's JPEG, sandboxed should a browser
// take it for a page.
func Serve(w http.ResponseWriter, r *http.Request, body []byte, cacheControl string, mod time.Time) {
	h := w.Header()
	h.Set("Content-Type", "image/jpeg")
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	h.Set("Cache-Control", cacheControl)
	web.ServeContent(w, r, "", mod, bytes.NewReader(body))
}

// CheckHash reports a conflict when the file's content is not sha's, and
// leaves it at its start.
func CheckHash(f *os.File, sha string) error {
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

// Derivatives makes the JPEGs served in place of image files and keeps
// them: in memory (MemCacheBytes) and, for imported files, whose address is their
// content's hash, on disk. Decodes run in the lane for heavy work and
// within the resize pipeline's memory budget; requests for the same
// derivative at once share one decode, and the small size is made from
// the large one, so an image is decoded at full size once.
type Derivatives struct {
	pipeline *resize.Pipeline
	lane     *lane.Lane
	dir      string // "" keeps them in memory only
	group    singleflight.Group
	mu       sync.Mutex
	mem      map[string][]byte
	memBytes int
}

// NewDerivatives makes derivatives with pipeline, in lane, kept on disk
// under dir ("" keeps them in memory only).
func NewDerivatives(pipeline *resize.Pipeline, l *lane.Lane, dir string) *Derivatives {
	return &Derivatives{pipeline: pipeline, lane: l, dir: dir, mem: map[string][]byte{}}
}

// deriveTimeout bounds the making of one derivative, waits included.
const deriveTimeout = time.Minute

// MemCacheBytes bounds the Derivatives kept in memory (a large one is
// about 200 kB, a small one 20 kB); the disk keeps the rest.
const MemCacheBytes = 32 << 20

// quality is the derivatives' JPEG quality.
const quality = 82

// Get returns the derivative of the image key names made to fit side,
// from the caches or made now from the file open gives. persist keeps it
// on disk (for keys that name content).
func (d *Derivatives) Get(ctx context.Context, key string, side int, persist bool, open func() (f *os.File, orientation int, err error)) ([]byte, error) {
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
		body, err := d.smallFromOriginal(ctx, key, side, persist, open)
		if err != nil {
			return nil, err
		}
		switch {
		case body != nil:
		case side < LargeSide:
			// From the large derivative: 1.6 megapixels at most to decode.
			// It is had before a slot is taken: making it takes one.
			large, err := d.Get(ctx, key, LargeSide, persist, open)
			if err != nil {
				return nil, err
			}
			leave, err := d.lane.Wait(ctx)
			if err != nil {
				return nil, err
			}
			defer leave()
			if body, err = d.pipeline.Derive(ctx, bytes.NewReader(large), side, 1, quality); err != nil {
				return nil, err
			}
		default:
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
			if body, err = d.fromOriginal(ctx, side, open); err != nil {
				return nil, err
			}
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

// smallFromOriginal makes a derivative smaller than the large one straight
// from the original when the large one is not made yet and the original
// is a JPEG whose 1/8-scale picture fills side (the pipeline then reads
// its DC plane: a 320-pixel thumbnail of a 5.4 MP picture costs a
// fraction of the full decode the large one takes, and a list page's
// fifty thumbnails come without fifty full decodes). It is nil, with no
// error, where that does not apply: the caller makes the large one first.
func (d *Derivatives) smallFromOriginal(ctx context.Context, key string, side int, persist bool, open func() (*os.File, int, error)) ([]byte, error) {
	if side >= LargeSide || d.has(key, LargeSide, persist) {
		return nil, nil
	}
	leave, err := d.lane.Wait(ctx)
	if err != nil {
		return nil, err
	}
	defer leave()
	f, orientation, err := open()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h, err := resize.ReadHeader(f)
	if err != nil || h.Format != "jpeg" || max(h.Width, h.Height) < resize.DCScale*side {
		return nil, nil
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	return d.derive(ctx, f, orientation, side)
}

// fromOriginal makes a derivative from the original file open gives.
func (d *Derivatives) fromOriginal(ctx context.Context, side int, open func() (*os.File, int, error)) ([]byte, error) {
	f, orientation, err := open()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return d.derive(ctx, f, orientation, side)
}

// derive makes a derivative of f, turned upright by orientation, or by
// the file's own EXIF orientation when it is 0 (not known).
func (d *Derivatives) derive(ctx context.Context, f *os.File, orientation, side int) ([]byte, error) {
	if orientation == 0 {
		// Not known (a --media file, not imported): the file's.
		orientation = 1
		if md, err := imagemeta.Read(f); err == nil {
			orientation = md.EXIF.Orientation
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
	}
	return d.pipeline.Derive(ctx, f, side, orientation, quality)
}

// has says whether the derivative of key at side is kept, in memory or on
// disk.
func (d *Derivatives) has(key string, side int, persist bool) bool {
	name := fmt.Sprintf("%s-%d", key, side)
	d.mu.Lock()
	_, ok := d.mem[name]
	d.mu.Unlock()
	if ok || !persist || d.dir == "" {
		return ok
	}
	_, err := os.Stat(filepath.Join(d.dir, key[:2], name+".jpg"))
	return err == nil
}

func (d *Derivatives) remember(key string, b []byte) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.memBytes+len(b) > MemCacheBytes {
		clear(d.mem)
		d.memBytes = 0
	}
	d.mem[key] = b
	d.memBytes += len(b)
}

// MediaDir serves photo images from one folder and nothing outside it:
// os.Root refuses any path that leaves the folder, by .. or by a link.
type MediaDir struct {
	root *os.Root
}

func OpenMedia(dir string) (*MediaDir, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("--media %s: %w", dir, err)
	}
	return &MediaDir{root: root}, nil
}

// Open opens a file under the folder by its slash-separated path. A path
// with a ".." segment is refused outright; os.Root also refuses links
// that lead out.
func (m *MediaDir) Open(p string) (*os.File, fs.FileInfo, error) {
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." {
			return nil, nil, photo.Errorf(photo.EInvalid, "the image path leaves the media folder: %s", p)
		}
	}
	clean := strings.TrimPrefix(path.Clean("/"+p), "/")
	if clean == "" {
		return nil, nil, noImage(p)
	}
	f, err := m.root.Open(clean)
	if err != nil {
		return nil, nil, noImage(p)
	}
	st, err := f.Stat()
	if err != nil || st.IsDir() {
		f.Close()
		return nil, nil, noImage(p)
	}
	return f, st, nil
}

// imageTypes are the only types /media serves, by the content's sniffed
// type (never the name's extension): an HTML, SVG or script file in the
// media folder would otherwise run as the site itself.
var imageTypes = map[string]bool{"image/jpeg": true, "image/png": true, "image/gif": true, "image/webp": true}

// SniffImage returns the image type of f's content, or refuses it, and
// leaves f at its start.
func SniffImage(f *os.File, p string) (string, error) {
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	ct := http.DetectContentType(head[:n])
	if !imageTypes[ct] {
		return "", photo.Errorf(photo.EForbidden, "only images (JPEG, PNG, GIF, WebP) are served from the media folder: %s", p)
	}
	_, err := f.Seek(0, io.SeekStart)
	return ct, err
}

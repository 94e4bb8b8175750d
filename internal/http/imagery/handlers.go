package imagery

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	_ "image/gif" // decoders for thumbnails
	_ "image/png"
	"io/fs"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/gorilla/mux"

	"github.com/syriamap/syriamap/internal/http/web"
	"github.com/syriamap/syriamap/internal/photo"
)

// Handlers serve the images: imported files by their hash (route
// variable sha) and the media folder's by their path (variable path).
type Handlers struct {
	files       *Files
	media       *MediaDir // nil without --media
	derivatives *Derivatives
	withheld    Withheld
	fail        func(w http.ResponseWriter, r *http.Request, err error)
}

// Withheld says whether an image (an imported file by its hash, or a
// media file by its path) is withheld from a request: hidden, it is
// answered as an image the archive never had; private, it is served to
// that request alone, and no shared cache keeps it.
type Withheld func(r *http.Request, sha, path string) (hidden, private bool, err error)

// NewHandlers serves files, media (nil for none) and their derivatives,
// but what withheld hides; fail answers errors as the server does.
func NewHandlers(files *Files, media *MediaDir, derivatives *Derivatives, withheld Withheld, fail func(w http.ResponseWriter, r *http.Request, err error)) *Handlers {
	return &Handlers{files: files, media: media, derivatives: derivatives, withheld: withheld, fail: fail}
}

// hidden answers a request for an image withheld from it as one for an
// image the archive never had (noFile, noImage give the words), and
// returns the writer to serve it with otherwise: one that marks the
// response private, when it is.
func (h *Handlers) hidden(w http.ResponseWriter, r *http.Request, sha, path string) (http.ResponseWriter, bool) {
	hidden, private, err := h.withheld(r, sha, path)
	switch {
	case err != nil:
		h.fail(w, r, err)
		return w, true
	case hidden && sha != "":
		h.fail(w, r, noFile(sha))
		return w, true
	case hidden:
		h.fail(w, r, noImage(path))
		return w, true
	case private:
		return privateWriter{w}, false
	}
	return w, false
}

// imageSHA is the image hash the request's path names, with the writer to
// serve it with (see hidden), or answers why there is none (ok false).
func (h *Handlers) imageSHA(w http.ResponseWriter, r *http.Request) (_ http.ResponseWriter, sha string, ok bool) {
	sha = mux.Vars(r)["sha"]
	if !IsSHA256(sha) {
		h.fail(w, r, noImage(sha))
		return w, "", false
	}
	w, done := h.hidden(w, r, sha, "")
	return w, sha, !done
}

// privateWriter marks a response private whatever its handler sets.
type privateWriter struct{ http.ResponseWriter }

func (p privateWriter) WriteHeader(code int) {
	p.Header().Set("Cache-Control", "private, no-store")
	p.ResponseWriter.WriteHeader(code)
}

func (p privateWriter) Write(b []byte) (int, error) {
	p.Header().Set("Cache-Control", "private, no-store")
	return p.ResponseWriter.Write(b)
}

// imageSmall and imageLarge serve an imported image's Derivatives.
func (h *Handlers) Small(w http.ResponseWriter, r *http.Request) {
	h.derivative(w, r, SmallSide)
}
func (h *Handlers) Large(w http.ResponseWriter, r *http.Request) {
	h.derivative(w, r, LargeSide)
}

func (h *Handlers) derivative(w http.ResponseWriter, r *http.Request, side int) {
	w, sha, ok := h.imageSHA(w, r)
	if !ok {
		return
	}
	// The address holds the content's hash: the tag is known before the
	// derivative is made.
	if web.NotModified(w, r, `"`+sha+"-"+strconv.Itoa(side)+`"`) {
		return
	}
	body, err := h.derivatives.Get(r.Context(), sha, side, true, func() (*os.File, int, error) {
		f, st, err := h.files.Open(r.Context(), sha)
		if err != nil {
			return nil, 0, err
		}
		// The same size and time do not make the same content: a file
		// swapped in place would be served under the old hash, and
		// cached for a year. Its hash is checked before it is decoded.
		if err := CheckHash(f, sha); err != nil {
			f.Close()
			return nil, 0, err
		}
		// The orientation its import read: the file's metadata need not
		// be read again.
		return f, st.Orientation, nil
	})
	if err != nil {
		h.fail(w, r, err)
		return
	}
	// The address holds the content's hash: it never changes.
	Serve(w, r, body, "public, max-age=31536000, immutable", time.Time{})
}

// Original serves an imported image file as it is, metadata and all,
// when the server was started with --serve-originals.
func (h *Handlers) Original(w http.ResponseWriter, r *http.Request) {
	if !h.files.Originals() {
		h.fail(w, r, photo.Errorf(photo.EForbidden, "original image files are not served: they may carry the photographer's GPS position; start the server with --serve-originals to serve them"))
		return
	}
	w, sha, ok := h.imageSHA(w, r)
	if !ok || web.NotModified(w, r, `"`+sha+`"`) {
		return
	}
	f, _, err := h.files.Open(r.Context(), sha)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	defer f.Close()
	if err := CheckHash(f, sha); err != nil {
		h.fail(w, r, err)
		return
	}
	hdr := w.Header()
	hdr.Set("Content-Type", "image/jpeg")
	hdr.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	hdr.Set("Cache-Control", "public, max-age=31536000, immutable")
	web.ServeContent(w, r, "", time.Time{}, f)
}

// MediaFile serves an image from --media as /images serves imported ones:
// its large derivative (upright, no metadata), or with --serve-originals
// the file as it is. Anything that is not a JPEG, PNG, GIF or WebP image
// is refused, and what is served carries a CSP that lets it run nothing
// even if a browser were to take it for a page.
func (h *Handlers) MediaFile(w http.ResponseWriter, r *http.Request) {
	if !h.files.Originals() {
		h.mediaDerivative(w, r, LargeSide)
		return
	}
	w, p, f, st, ok := h.openMedia(w, r)
	if !ok {
		return
	}
	defer f.Close()
	ct, err := SniffImage(f, p)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	hdr := w.Header()
	hdr.Set("Content-Type", ct)
	hdr.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	hdr.Set("Cache-Control", "public, max-age=3600")
	hdr.Set("ETag", mediaTag(mediaKey(p, st), 0))
	web.ServeContent(w, r, st.Name(), st.ModTime(), f)
}

// openMedia opens the --media file the request's path names, with the
// writer to serve it with (see hidden), or answers why it cannot (ok
// false).
func (h *Handlers) openMedia(w http.ResponseWriter, r *http.Request) (_ http.ResponseWriter, p string, f *os.File, st fs.FileInfo, ok bool) {
	if h.media == nil {
		h.fail(w, r, web.NotFound("the server was started without --media"))
		return w, "", nil, nil, false
	}
	p = mux.Vars(r)["path"]
	w, done := h.hidden(w, r, "", p)
	if done {
		return w, "", nil, nil, false
	}
	f, st, err := h.media.Open(p)
	if err != nil {
		h.fail(w, r, err)
		return w, "", nil, nil, false
	}
	return w, p, f, st, true
}

// Thumbnail serves an image from --media shrunk to fit a square of size
// pixels (size=240 by default, 32 to 1024), for popups and lists.
func (h *Handlers) Thumbnail(w http.ResponseWriter, r *http.Request) {
	size, err := web.IntParam(r.URL.Query(), "size", 240, 32, 1024)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.mediaDerivative(w, r, size)
}

// mediaDerivative serves the derivative of a --media image made to fit
// side: made by the same pipeline as an imported image's, and kept in
// memory under the file's path, size and time.
func (h *Handlers) mediaDerivative(w http.ResponseWriter, r *http.Request, side int) {
	w, p, f, st, ok := h.openMedia(w, r)
	if !ok {
		return
	}
	f.Close()
	key := mediaKey(p, st)
	if web.NotModified(w, r, mediaTag(key, side)) {
		return
	}
	body, err := h.derivatives.Get(r.Context(), key, side, false, func() (*os.File, int, error) {
		f, _, err := h.media.Open(p)
		if err != nil {
			return nil, 0, err
		}
		if _, err := SniffImage(f, p); err != nil {
			f.Close()
			return nil, 0, err
		}
		return f, 0, nil // the orientation is read from the file
	})
	if err != nil {
		h.fail(w, r, err)
		return
	}
	Serve(w, r, body, "public, max-age=3600", st.ModTime())
}

// mediaKey names a --media file's content as far as the server can tell
// without reading it: its path, size and time.
func mediaKey(p string, st fs.FileInfo) string {
	return fmt.Sprintf("media:%s:%d:%d", p, st.Size(), st.ModTime().UnixNano())
}

// mediaTag is the ETag of a --media file's derivative: its path, size and
// time (the key it is kept under) and the size made.
func mediaTag(key string, side int) string {
	sum := sha256.Sum256([]byte(key))
	return `"m` + hex.EncodeToString(sum[:8]) + "-" + strconv.Itoa(side) + `"`
}

// Package assets embeds the files the pages load (style sheets now; the
// map and timeline scripts later) and names each by its content, so that
// a browser may cache them for good and still never runs a stale one.
package assets

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"time"
)

//go:embed static
var static embed.FS

// asset is one embedded file under its hashed name.
type asset struct {
	body        []byte
	contentType string
}

var (
	hashed = map[string]string{} // "style.css" → "style.1a2b3c4d5e.css"
	byName = map[string]asset{}  // hashed name → file
)

func init() {
	err := fs.WalkDir(static, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := static.ReadFile(p)
		if err != nil {
			return err
		}
		name := strings.TrimPrefix(p, "static/")
		sum := sha256.Sum256(b)
		ext := path.Ext(name)
		h := strings.TrimSuffix(name, ext) + "." + hex.EncodeToString(sum[:5]) + ext
		hashed[name] = h
		byName[h] = asset{body: b, contentType: mime.TypeByExtension(ext)}
		return nil
	})
	if err != nil {
		panic(fmt.Sprintf("assets: reading the embedded files: %v", err)) // fixed at build time
	}
}

// Name returns the content-hashed name of the embedded file name, e.g.
// "style.css" → "style.1a2b3c4d5e.css". It panics for a file that is not
// embedded: that is a programming error, caught by any test of a page.
func Name(name string) string {
	h, ok := hashed[name]
	if !ok {
		panic("assets: no embedded file " + name)
	}
	return h
}

// Serve writes the file with the hashed name, to be cached for a year,
// and reports whether there is one.
func Serve(w http.ResponseWriter, r *http.Request, hashedName string) bool {
	a, ok := byName[hashedName]
	if !ok {
		return false
	}
	h := w.Header()
	h.Set("Content-Type", a.contentType)
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("ETag", `"`+hashedName+`"`) // the name holds the content's hash
	http.ServeContent(w, r, hashedName, time.Time{}, bytes.NewReader(a.body))
	return true
}

// Files returns every embedded file's body by its hashed name: what a
// static copy of the site (syriamap publish) ships beside its pages.
func Files() map[string][]byte {
	out := make(map[string][]byte, len(byName))
	for name, a := range byName {
		out[name] = a.body
	}
	return out
}

package publish

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// site is the folder being published. Files the page reads are named by
// their content (data/points.1a2b3c4d5e.json.gz), so that a host may
// cache them for good and a re-publish writes, and a sync uploads, only
// those that changed; the pages and the downloads keep their names and
// are written only when their bytes change. What the folder held before
// and this publish did not write is removed at the end (prune).
type site struct {
	dir     string
	kept    map[string]bool // slash paths written or found unchanged
	changed []string        // slash paths written
	written int
	bytes   int64
}

func newSite(dir string) (*site, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("publish: making %s: %w", dir, err)
	}
	return &site{dir: dir, kept: map[string]bool{}}, nil
}

// hashed writes body as dir/name.<hash>.ext and returns that path.
func (s *site) hashed(dir, name, ext string, body []byte) (string, error) {
	sum := sha256.Sum256(body)
	p := path.Join(dir, name+"."+hex.EncodeToString(sum[:5])+ext)
	return p, s.put(p, body)
}

// hashedGzip is hashed for data the page decompresses itself (with
// DecompressionStream): any static host serves it as it is, at a fifth
// of its size, with no Content-Encoding to configure.
func (s *site) hashedGzip(dir, name, ext string, body []byte) (string, error) {
	return s.hashed(dir, name, ext+".gz", gzipBytes(body))
}

// put writes body at the slash path p unless the file there holds it
// already.
func (s *site) put(p string, body []byte) error {
	s.kept[p] = true
	s.bytes += int64(len(body))
	full := filepath.Join(s.dir, filepath.FromSlash(p))
	if old, err := os.ReadFile(full); err == nil && bytes.Equal(old, body) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		return fmt.Errorf("publish: %w", err)
	}
	// Written beside and renamed: a reader of the folder (a sync, a
	// server) never sees half a file.
	tmp := full + ".tmp"
	if err := os.WriteFile(tmp, body, 0o644); err != nil {
		return fmt.Errorf("publish: writing %s: %w", p, err)
	}
	if err := os.Rename(tmp, full); err != nil {
		return fmt.Errorf("publish: %w", err)
	}
	s.written++
	s.changed = append(s.changed, p)
	return nil
}

// keep marks a file written by other means (a large download streamed
// to disk) as part of the site.
func (s *site) keep(p string, size int64, changed bool) {
	s.kept[p] = true
	s.bytes += size
	if changed {
		s.written++
		s.changed = append(s.changed, p)
	}
}

// prune removes what an earlier publish wrote and this one did not, and
// returns how many files it removed. Only syriamap's own folders and
// files are touched: whatever else a person put in the folder stays.
func (s *site) prune() (int, error) {
	removed := 0
	for _, top := range []string{"assets", "data", "download", "images"} {
		root := filepath.Join(s.dir, top)
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if os.IsNotExist(err) {
					return nil
				}
				return err
			}
			if d.IsDir() {
				return nil
			}
			rel, _ := filepath.Rel(s.dir, p)
			if !s.kept[filepath.ToSlash(rel)] {
				if err := os.Remove(p); err != nil {
					return err
				}
				removed++
			}
			return nil
		})
		if err != nil {
			return removed, fmt.Errorf("publish: removing stale files: %w", err)
		}
	}
	return removed, nil
}

// relRoot is how a page at slash path p reaches the site's root ("" at
// the top, "../" one folder down): every link is relative, so the site
// works from any sub-path (https://example.org/syria/).
func relRoot(p string) string {
	return strings.Repeat("../", strings.Count(p, "/"))
}

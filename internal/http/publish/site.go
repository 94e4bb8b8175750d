package publish

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
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
	s := &site{dir: dir, kept: map[string]bool{}}
	return s, s.removeTemps()
}

// tempSuffix ends the name of a file being written; a publish that was
// killed leaves some, which the next one removes first.
const tempSuffix = ".syriamap-tmp"

// path is the file path of the site's slash path p. No part of it under
// the site's folder may be a symbolic link: a publish never writes through
// a link, which could point anywhere on the machine.
func (s *site) path(p string) (string, error) {
	full := s.dir
	for _, part := range strings.Split(p, "/") {
		full = filepath.Join(full, part)
		fi, err := os.Lstat(full)
		if errors.Is(err, fs.ErrNotExist) {
			break // made by this publish from here on
		}
		if err != nil {
			return "", fmt.Errorf("publish: %w", err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			rel, _ := filepath.Rel(s.dir, full)
			return "", fmt.Errorf("publish: %s in %s is a symbolic link, and a publish never writes through one: remove it, or publish to another folder", rel, s.dir)
		}
	}
	return filepath.Join(s.dir, filepath.FromSlash(p)), nil
}

// createTemp makes the folders of the file full and a new file beside it
// to write it in (created anew, so never an existing file or link), with
// the permissions a web server needs to read it.
func (s *site) createTemp(full string) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		return nil, fmt.Errorf("publish: %w", err)
	}
	f, err := os.CreateTemp(filepath.Dir(full), "."+filepath.Base(full)+".*"+tempSuffix)
	if err != nil {
		return nil, fmt.Errorf("publish: %w", err)
	}
	if err := f.Chmod(0o644); err != nil { // CreateTemp's 0600 would hide it from a web server
		f.Close()
		os.Remove(f.Name())
		return nil, fmt.Errorf("publish: %w", err)
	}
	return f, nil
}

// removeTemps removes the files a killed publish left half written.
func (s *site) removeTemps() error {
	return filepath.WalkDir(s.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), tempSuffix) {
			if err := os.Remove(p); err != nil {
				return fmt.Errorf("publish: removing a half-written file: %w", err)
			}
		}
		return nil
	})
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
	full, err := s.path(p)
	if err != nil {
		return err
	}
	if old, err := os.ReadFile(full); err == nil && bytes.Equal(old, body) {
		return nil
	}
	// Written beside and renamed: a reader of the folder (a sync, a
	// server) never sees half a file.
	f, err := s.createTemp(full)
	if err != nil {
		return err
	}
	_, err = f.Write(body)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("publish: writing %s: %w", p, err)
	}
	if err := os.Rename(f.Name(), full); err != nil {
		os.Remove(f.Name())
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

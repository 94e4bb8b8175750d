package originals

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// Dir keeps originals in a folder, each at ab/cd/<sum> (two levels of
// 256 folders keep any one small at a million files), read-only.
type Dir struct {
	root string
}

// NewDir returns the store in the folder root, made if need be.
func NewDir(root string) (*Dir, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return nil, fmt.Errorf("originals: cannot make the folder %s: %w", abs, err)
	}
	return &Dir{root: abs}, nil
}

// Where is the folder.
func (d *Dir) Where() string { return d.root }

// Path is where the original under sum is, or would be.
func (d *Dir) Path(sum string) string {
	return filepath.Join(d.root, sum[:2], sum[2:4], sum)
}

// Put writes r to a temporary file in the store, hashing it as it goes,
// syncs it and renames it into place: an original is there whole or not
// at all, and never overwritten.
func (d *Dir) Put(ctx context.Context, sum string, size int64, r io.Reader) (bool, error) {
	if !validSum(sum) {
		return false, fmt.Errorf("originals: %q is not a SHA-256", sum)
	}
	dst := d.Path(sum)
	if _, err := os.Stat(dst); err == nil {
		return false, nil
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return false, fmt.Errorf("originals: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(dst), ".put-*")
	if err != nil {
		return false, fmt.Errorf("originals: %w", err)
	}
	defer os.Remove(tmp.Name()) // gone once renamed
	h := sha256.New()
	if _, err := io.Copy(io.MultiWriter(tmp, h), io.LimitReader(r, size+1)); err != nil {
		tmp.Close()
		return false, fmt.Errorf("originals: writing %s: %w", sum, err)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != sum {
		tmp.Close()
		return false, &MismatchError{Want: sum, Got: got}
	}
	if err := tmp.Chmod(0o444); err != nil {
		tmp.Close()
		return false, fmt.Errorf("originals: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return false, fmt.Errorf("originals: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return false, fmt.Errorf("originals: %w", err)
	}
	if err := os.Rename(tmp.Name(), dst); err != nil {
		return false, fmt.Errorf("originals: %w", err)
	}
	return true, nil
}

// Adopt keeps the file at path, whose bytes hash to sum (the caller read
// them), as the original under sum by a hard link, read-only: no byte is
// written again. It is for a file nobody else will change (an upload's
// copy); a file on another disk is refused (the caller then Puts it).
// It is durable once the store is synced (Sync).
func (d *Dir) Adopt(sum, path string) (created bool, err error) {
	if !validSum(sum) {
		return false, fmt.Errorf("originals: %q is not a SHA-256", sum)
	}
	dst := d.Path(sum)
	if _, err := os.Stat(dst); err == nil {
		return false, nil
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return false, fmt.Errorf("originals: %w", err)
	}
	if err := os.Link(path, dst); err != nil {
		return false, fmt.Errorf("originals: %w", err)
	}
	if err := os.Chmod(dst, 0o444); err != nil {
		return false, fmt.Errorf("originals: %w", err)
	}
	return true, nil
}

// Open opens the original's file.
func (d *Dir) Open(_ context.Context, sum string) (io.ReadCloser, error) {
	if !validSum(sum) {
		return nil, fmt.Errorf("originals: %q is not a SHA-256", sum)
	}
	f, err := os.Open(d.Path(sum))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s in %s: %w", sum, d.root, ErrNotFound)
	}
	return f, err
}

// Staged is an original being written while its bytes are read for
// another purpose (an import hashes and checks a file as it reads it):
// the file is read once. Commit keeps it under sum when its bytes hash
// to sum; Abort drops it.
type Staged struct {
	d   *Dir
	f   *os.File
	h   hash.Hash
	err error
}

// Stage begins an original whose sum is not known yet.
func (d *Dir) Stage() (*Staged, error) {
	f, err := os.CreateTemp(d.root, ".stage-*")
	if err != nil {
		return nil, fmt.Errorf("originals: %w", err)
	}
	return &Staged{d: d, f: f, h: sha256.New()}, nil
}

func (s *Staged) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.f.Write(p)
	s.h.Write(p[:n])
	if err != nil {
		s.err = fmt.Errorf("originals: %w", err)
	}
	return n, s.err
}

// Commit keeps what was written under sum, read-only, unless the store
// holds sum already; it is durable once the store is synced (Sync).
func (s *Staged) Commit(sum string) (created bool, err error) {
	defer os.Remove(s.f.Name()) // gone once renamed
	if cerr := s.f.Close(); s.err == nil {
		s.err = cerr
	}
	if s.err != nil {
		return false, s.err
	}
	if got := hex.EncodeToString(s.h.Sum(nil)); got != sum || !validSum(sum) {
		return false, &MismatchError{Want: sum, Got: got}
	}
	dst := s.d.Path(sum)
	if _, err := os.Stat(dst); err == nil {
		return false, nil
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return false, fmt.Errorf("originals: %w", err)
	}
	if err := os.Chmod(s.f.Name(), 0o444); err != nil {
		return false, fmt.Errorf("originals: %w", err)
	}
	if err := os.Rename(s.f.Name(), dst); err != nil {
		return false, fmt.Errorf("originals: %w", err)
	}
	return true, nil
}

// Abort drops what was written.
func (s *Staged) Abort() {
	s.f.Close()
	os.Remove(s.f.Name())
}

// Sync makes every original written so far durable: one sync of the
// store's file system, rather than one per file, before the archive
// names them.
func (d *Dir) Sync() error {
	f, err := os.Open(d.root)
	if err != nil {
		return fmt.Errorf("originals: %w", err)
	}
	defer f.Close()
	if err := unix.Syncfs(int(f.Fd())); err != nil {
		return fmt.Errorf("originals: syncing %s: %w", d.root, err)
	}
	return nil
}

// Leftover is a file in the folder store that no import finished: an
// original (by its sum) that no photo may name, or a half-written one
// (Temp) of an import that was killed.
type Leftover struct {
	Path    string
	Sum     string // "" for a temporary file
	Temp    bool
	ModTime time.Time
}

// Files calls fn for each original and temporary file in the store.
func (d *Dir) Files(fn func(Leftover) error) error {
	return filepath.WalkDir(d.root, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		info, err := e.Info()
		if err != nil {
			return err
		}
		name := e.Name()
		switch {
		case strings.HasPrefix(name, ".stage-") || strings.HasPrefix(name, ".put-"):
			return fn(Leftover{Path: p, Temp: true, ModTime: info.ModTime()})
		case validSum(name):
			return fn(Leftover{Path: p, Sum: name, ModTime: info.ModTime()})
		}
		return nil // not the store's: left alone
	})
}

// Remove removes a leftover file (read-only originals too).
func (d *Dir) Remove(l Leftover) error {
	if rel, err := filepath.Rel(d.root, l.Path); err != nil || strings.HasPrefix(rel, "..") {
		return fmt.Errorf("originals: %s is not in %s", l.Path, d.root)
	}
	if err := os.Remove(l.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("originals: removing %s: %w", l.Path, err)
	}
	return nil
}

// Writable reports whether a file can be written in the folder now (an
// empty one, removed at once): nil, or why not (a read-only mount, a
// folder of another user's, a full disk).
func (d *Dir) Writable() error {
	f, err := os.CreateTemp(d.root, ".probe-*")
	if err != nil {
		return fmt.Errorf("originals: %w", err)
	}
	name := f.Name()
	err = f.Close()
	if rerr := os.Remove(name); err == nil {
		err = rerr
	}
	if err != nil {
		return fmt.Errorf("originals: %w", err)
	}
	return nil
}

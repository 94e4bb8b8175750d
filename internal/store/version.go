package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/syriamap/syriamap/internal/photo"
)

// Every read the server answers names the archive's versions (its ETag,
// its response cache), and a query for them cost a third of an answer
// from the response cache. So they are kept in memory: a change this
// process commits, through any of its handles on the file, drops them at
// once; a change another process commits (syriamap import into the
// archive a server serves) is seen within versionTTL.

// versionTTL is how long versions read are trusted without asking SQLite
// again.
const versionTTL = 500 * time.Millisecond

// versionMemo is the versions last read, and the count of the file's
// committed changes they were read at.
type versionMemo struct {
	mu                  sync.Mutex
	photos, all, hidden int64
	at                  time.Time
	writes              uint64
}

// fileWrites counts the changes committed to each archive file by this
// process, whatever handle committed them.
var fileWrites sync.Map // absolute path → *atomic.Uint64

// writesOf returns the counter of the file at path.
func writesOf(path string) *atomic.Uint64 {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	c, _ := fileWrites.LoadOrStore(path, new(atomic.Uint64))
	return c.(*atomic.Uint64)
}

// change is what a write transaction changed, as the versions count it.
type change int

const (
	// changedNothing raises no version (a write that changed no row).
	changedNothing change = iota
	// changedAnswers is a change to what the archive answers but to no
	// photo: a story, an added place, a custody record.
	changedAnswers
	// changedPhotos is a change to photos readers see.
	changedPhotos
	// changedHidden is a change to photos withheld from the public
	// alone: editors see it, readers do not.
	changedHidden
)

// end commits a write transaction, raising the archive's versions for
// what it changed. It is the one place the versions move, so that
// nothing keyed by them (the memory index, the facet and response caches,
// every ETag) outlives a change: a write that changes what a reader may
// see and does not end here is a bug. The memo of every handle on the
// file is then stale (counted after the commit, so that a reader who read
// before it cannot keep what it read as fresh).
func (s *DB) end(ctx context.Context, tx *sql.Tx, ch change) error {
	raise := map[change]func(context.Context, *sql.Tx) error{changedAnswers: touch, changedPhotos: bump, changedHidden: hide}[ch]
	if raise != nil {
		if err := raise(ctx, tx); err != nil {
			return err
		}
	}
	err := tx.Commit()
	s.writes.Add(1)
	return err
}

// Version returns the archive's change counter of its photos: it is
// higher after every import, correction, re-geocoding or mark that
// changed a photo.
func (s *DB) Version(ctx context.Context) (int64, error) {
	v, _, err := s.Versions(ctx)
	return v, err
}

// Versions returns the change counter of the photos (Version) and that
// of everything the archive answers: the photos, stories, added places
// and custody records. The second is higher after any change the first
// is, and after the others too: what a whole answer is named by.
func (s *DB) Versions(ctx context.Context) (photos, all int64, err error) {
	photos, all, _, err = s.versionsOf(ctx)
	return photos, all, err
}

// VersionsFor is Versions as the viewer may know it: for an editor the
// count of all changes takes in the changes to withheld photos too (their
// pages show them); for a reader it does not, so that nothing a reader is
// answered, its ETag included, moves when only withheld photos change.
func (s *DB) VersionsFor(ctx context.Context, editor bool) (photos, all int64, err error) {
	photos, all, hidden, err := s.versionsOf(ctx)
	if editor {
		all += hidden
	}
	return photos, all, err
}

// ViewersVersion is Version as ctx's viewer knows it (photo.ViewerOf):
// for an editor it moves with the changes to withheld photos too. What is
// kept for a viewer is kept at it.
func (s *DB) ViewersVersion(ctx context.Context) (int64, error) {
	photos, _, hidden, err := s.versionsOf(ctx)
	if photo.ViewerOf(ctx).SeesWithheld() {
		photos += hidden
	}
	return photos, err
}

func (s *DB) versionsOf(ctx context.Context) (photos, all, hidden int64, err error) {
	m := &s.versions
	writes := s.writes.Load()
	m.mu.Lock()
	if m.writes == writes && !m.at.IsZero() && time.Since(m.at) < versionTTL {
		photos, all, hidden = m.photos, m.all, m.hidden
		m.mu.Unlock()
		return photos, all, hidden, nil
	}
	m.mu.Unlock()
	at := time.Now()
	err = s.reading(ctx, "", "reading the archive's version", func(ctx context.Context) error {
		return s.read.QueryRowContext(ctx, `SELECT version, changes, hidden FROM archive_version WHERE id = 1`).Scan(&photos, &all, &hidden)
	})
	if err == nil && s.writes.Load() == writes {
		m.mu.Lock()
		m.photos, m.all, m.hidden, m.at, m.writes = photos, all, hidden, at, writes
		m.mu.Unlock()
	}
	return photos, all, hidden, err
}

// bump raises both change counters inside a write transaction that
// changed photos (see end, its one caller, and hide and touch).
func bump(ctx context.Context, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, `UPDATE archive_version SET version = version + 1, changes = changes + 1 WHERE id = 1`); err != nil {
		return fmt.Errorf("store: version: %w", err)
	}
	return nil
}

// hide raises only the counter of changes readers do not see, inside a
// write transaction that changed withheld photos alone.
func hide(ctx context.Context, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, `UPDATE archive_version SET hidden = hidden + 1 WHERE id = 1`); err != nil {
		return fmt.Errorf("store: hidden changes: %w", err)
	}
	return nil
}

// touch raises the counter of everything inside a write transaction that
// changed what the archive answers but no photo (a story, a place, a
// custody record).
func touch(ctx context.Context, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, `UPDATE archive_version SET changes = changes + 1 WHERE id = 1`); err != nil {
		return fmt.Errorf("store: changes: %w", err)
	}
	return nil
}

// Package store keeps the photo archive in SQLite (modernc.org/sqlite, pure
// Go). All of syriamap's SQL lives here. A DB is safe for concurrent use:
// SQLite runs in WAL mode, so readers keep working while an import writes.
package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/syriamap/syriamap/internal/photo"
)

//go:embed migrations/*.sql
var migrations embed.FS

// DB is the photo archive.
type DB struct {
	db   *sql.DB
	path string
	// Now gives the time stamps written; tests may replace it.
	Now func() time.Time
}

// Page cache sizes, negative as SQLite takes KiB: each reading connection
// keeps a small cache (pages past it come from the memory-mapped file,
// shared by all); an import's connection a large one while it writes.
const (
	readerCacheKiB = -16 << 10
	importCacheKiB = -128 << 10
)

// Open opens, or creates, the archive at path and brings its schema up to
// date. SQLite is opened deliberately: WAL journal, foreign keys on, a busy
// timeout so that a writer waits instead of failing, and NORMAL syncing,
// which in WAL mode keeps every committed transaction across a crash of the
// process.
func Open(ctx context.Context, path string) (*DB, error) {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("store: creating %s: %w", dir, err)
		}
	}
	q := url.Values{}
	for _, p := range []string{"journal_mode(WAL)", "foreign_keys(1)", "busy_timeout(10000)", "synchronous(NORMAL)", fmt.Sprintf("cache_size(%d)", readerCacheKiB), "mmap_size(1073741824)", "temp_store(MEMORY)"} {
		q.Add("_pragma", p)
	}
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("store: opening %s: %w", path, err)
	}
	// Each connection keeps its own page cache; pages past it come from
	// the shared memory map. A bounded pool keeps a burst of map requests
	// from opening a connection (and a cache) each: they queue for one
	// of a few, which is all two cores can run anyway.
	db.SetMaxOpenConns(max(4, 2*runtime.GOMAXPROCS(0)))
	s := &DB{db: db, path: path, Now: time.Now}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// Close closes the archive.
func (s *DB) Close() error { return s.db.Close() }

// Path returns the file the archive is in.
func (s *DB) Path() string { return s.path }

// migrate applies the embedded migrations that the database has not seen,
// each in its own transaction, and records them.
func (s *DB) migrate(ctx context.Context) error {
	if _, err := s.db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied TEXT NOT NULL)`); err != nil {
		return fmt.Errorf("store: %s: %w", s.path, err)
	}
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(names)
	for _, name := range names {
		base := filepath.Base(name)
		version, err := strconv.Atoi(strings.SplitN(base, "_", 2)[0])
		if err != nil {
			return fmt.Errorf("store: migration %s has no version number", base)
		}
		if err := s.apply(ctx, version, base, name); err != nil {
			return err
		}
	}
	return nil
}

func (s *DB) apply(ctx context.Context, version int, base, name string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations WHERE version = ?`, version).Scan(&n); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if n > 0 {
		return nil
	}
	body, err := fs.ReadFile(migrations, name)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, string(body)); err != nil {
		return fmt.Errorf("store: migration %s: %w", base, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied) VALUES (?, ?, ?)`,
		version, base, s.Now().UTC().Format(time.RFC3339)); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return tx.Commit()
}

// Integrity runs SQLite's integrity check, and FTS5's over the caption
// index, and returns nil when both say ok.
func (s *DB) Integrity(ctx context.Context) error {
	var res string
	if err := s.db.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&res); err != nil {
		return fmt.Errorf("store: integrity check: %w", err)
	}
	if res != "ok" {
		return fmt.Errorf("store: integrity check: %s", res)
	}
	// The full-text index against the captions it was built from.
	if _, err := s.db.ExecContext(ctx, `INSERT INTO photos_fts (photos_fts, rank) VALUES ('integrity-check', 1)`); err != nil {
		return fmt.Errorf("store: full-text integrity check: %w", err)
	}
	return nil
}

// Count returns how many photos the archive holds.
func (s *DB) Count(ctx context.Context) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM photos`).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("store: counting photos: %w", err)
	}
	return n, nil
}

// notFound turns sql.ErrNoRows into a not-found application error.
func notFound(err error, what string) error {
	if errors.Is(err, sql.ErrNoRows) {
		return photo.Errorf(photo.ENotFound, "%s not found", what)
	}
	return err
}

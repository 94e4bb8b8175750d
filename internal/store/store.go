// Package store keeps the photo archive in SQLite (modernc.org/sqlite, pure
// Go), the embedded default, or in PostgreSQL (pgx), for a team's server.
// All of syriamap's SQL lives here, written once in the dialect both
// engines share; toPostgres and dialect hold what differs. A DB is safe for concurrent use:
// SQLite runs in WAL mode, so readers keep working while an import writes.
//
// A DB holds three sets of connections, so that no kind of work can starve
// another: a pool of readers, whose queries each run under a deadline; one
// writer, whose transactions take SQLite's write lock as they begin, so
// that a second writer waits for the first instead of failing midway; and
// one connection kept for health checks. How many costly reads run at once
// is the caller's to decide (the HTTP server admits them in a lane).
package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite" // registers the "sqlite" driver
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/syriamap/syriamap/internal/photo"
)

// migrations holds each engine's history: migrations/ for SQLite,
// migrations_postgres/ for PostgreSQL.
//
//go:embed migrations/*.sql migrations_postgres/*.sql
var migrations embed.FS

// applicationID marks an SQLite file as a syriamap archive (PRAGMA
// application_id; "SYRM").
const applicationID = 0x5359524d

// DB is the photo archive.
type DB struct {
	read  *sql.DB // readers: query_only, a bounded pool
	write *sql.DB // the one writer; nil when read-only
	// queue writes the jobs' queue (jobs.go) outside the writer's
	// transactions, so that a long import does not hold back the leases
	// of the jobs running beside it; nil: the writer (SQLite's one).
	queue *sql.DB
	probe *sql.DB // one reader kept for Health, so it never waits for the pool
	// bulk reads the whole archive (the server's memory index) without
	// mmap: pages read once go through SQLite's small cache and the OS's,
	// not into the process's resident memory for good.
	bulk *sql.DB
	path string
	// postgres: the archive is in PostgreSQL (openPostgres), not a file.
	postgres bool
	// readOnly: opened with OpenReadOnly.
	readOnly bool
	// Timeout bounds each read query (0: none); a query that runs past it
	// is stopped and reported as unavailable.
	Timeout time.Duration
	// Now gives the time stamps written; tests may replace it.
	Now func() time.Time
	// MentionKey folds the caption text a place was read from into the
	// key the review queue groups by; the archive sets it to the
	// gazetteer's spelling fold ("Al Mushayrifah", "MUSHAYRIFAH" one key).
	// Nil folds case only.
	MentionKey func(mention string) string
	// WidenSearch reads a caption search (as ftsQuery cleans it) as the
	// parts a caption must hold, each one of its search keys (a place's
	// name widened to its spellings: gazetteer.SearchSpellings.Widen), or
	// nil to search it as it is; the archive sets it. Nil searches every
	// search as it is.
	WidenSearch func(q string) [][]string
	// Actor is who a command's custody records name when no editor does
	// ("syriamap import", or "syriamap import, by rana"); "syriamap" when
	// unset.
	Actor string
	// RecordPaths keeps in import's custody records the files' paths as
	// given (folders of the importing machine); by default only their
	// names, with their hashes and sizes: what a court needs, without
	// the machine's layout in every evidence bag.
	RecordPaths bool
	// freeSpace returns the free bytes of a folder's disk (freeBytes;
	// tests replace it).
	freeSpace func(dir string) (uint64, error)
	// versions are the versions last read; writes counts the changes
	// committed to the file by this process (see Versions).
	versions versionMemo
	writes   *atomic.Uint64
}

// readerMmapBytes is how much of the archive the readers map. Mapped
// pages count in the server's own memory (PSS) as long as they stay
// mapped: at 1M photos (a 0.9 GB archive), 1 GB mapped made the idle
// server 1.2 GB, 256 MB 0.66 GB, none 0.42 GB; the queries SQLite still
// answers once the memory index serves the windows (a year's facets, a
// filtered timeline) took 1.4 s, 2.2 s and 2.9 s, and 0.19, 0.27 and 0.34 s
// (measured on the bench's 1M archive, the OS cache warm).
const readerMmapBytes = 256 << 20

// Page cache sizes, negative as SQLite takes KiB: each reading connection
// keeps a small cache (pages past it come from the memory-mapped file,
// shared by all); an import's connection a large one while it writes.
const (
	readerCacheKiB = -16 << 10
	importCacheKiB = -128 << 10
)

// DefaultTimeout is how long a read query may run before it is stopped.
const DefaultTimeout = 15 * time.Second

// readers is the size of the reader pool. A server's requests hold a
// connection only while they read, never while a client reads their answer
// (see SelectIDs), so a few are enough for two cores.
var readers = max(6, 3*runtime.GOMAXPROCS(0))

// Open opens, or creates, the archive at path and brings its schema up to
// date. SQLite is opened deliberately: WAL journal, foreign keys on, a busy
// timeout so that a writer waits instead of failing, and NORMAL syncing,
// which in WAL mode keeps every committed transaction across a crash of the
// process. A file that is not a syriamap archive (another application's
// database, or not SQLite) is refused before anything is written to it.
func Open(ctx context.Context, path string) (*DB, error) {
	if IsPostgres(path) {
		return openPostgres(ctx, path, false)
	}
	if err := checkPath(path); err != nil {
		return nil, err
	}
	if err := checkArchiveFile(ctx, path); err != nil {
		return nil, err
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("store: creating %s: %w", dir, err)
		}
	}
	s := &DB{path: path, Now: time.Now, Timeout: DefaultTimeout, freeSpace: freeBytes, writes: writesOf(path)}
	var err error
	// The writer: BEGIN IMMEDIATE takes the write lock before the first
	// read, so a transaction that must wait for another writer waits at its
	// start (up to the busy timeout) instead of failing after it has read.
	s.write, err = openPool(path, 1, false, "_txlock=immediate", "journal_mode(WAL)", "foreign_keys(1)", "busy_timeout(60000)",
		"synchronous(NORMAL)", fmt.Sprintf("cache_size(%d)", readerCacheKiB), "temp_store(MEMORY)")
	if err != nil {
		return nil, err
	}
	if err := s.migrate(ctx); err != nil {
		s.write.Close()
		return nil, err
	}
	if err := s.openReaders(false); err != nil {
		s.write.Close()
		return nil, err
	}
	return s, nil
}

// OpenReadOnly opens the archive at path for reading only: nothing is ever
// written to it, and a folder or mount that cannot be written to is fine
// (SQLite is then told the file is immutable). An archive whose schema is
// older than this syriamap's must first be opened once with Open.
func OpenReadOnly(ctx context.Context, path string) (*DB, error) {
	if IsPostgres(path) {
		return openPostgres(ctx, path, true)
	}
	if err := checkPath(path); err != nil {
		return nil, err
	}
	if _, err := os.Stat(path); err != nil {
		return nil, photo.Errorf(photo.EInvalid, "the archive %s cannot be read: %v", path, unwrapPath(err))
	}
	if err := checkArchiveFile(ctx, path); err != nil {
		return nil, err
	}
	s := &DB{path: path, Now: time.Now, Timeout: DefaultTimeout, readOnly: true, writes: writesOf(path)}
	if err := s.openReaders(true); err != nil {
		return nil, err
	}
	if pending, err := s.pendingMigrations(ctx, s.read); err != nil {
		s.Close()
		return nil, err
	} else if len(pending) > 0 {
		s.Close()
		return nil, photo.Errorf(photo.EInvalid, "the archive %s needs an upgrade (%s) that a read-only open cannot make: open it once with write access (e.g. syriamap list --db %s)",
			path, strings.Join(pending, ", "), path)
	}
	return s, nil
}

// openReaders opens the reader pool and the health-check connection.
func (s *DB) openReaders(readOnly bool) error {
	mode := ""
	if readOnly {
		mode = readOnlyMode(s.path)
	}
	pragmas := []string{"query_only(1)", "foreign_keys(1)", "busy_timeout(10000)", fmt.Sprintf("cache_size(%d)", readerCacheKiB),
		fmt.Sprintf("mmap_size(%d)", readerMmapBytes), "temp_store(MEMORY)"}
	var err error
	if s.read, err = openPool(s.path, readers, true, mode, pragmas...); err != nil {
		return err
	}
	if s.probe, err = openPool(s.path, 1, true, mode, "query_only(1)", "busy_timeout(1000)", "cache_size(-256)"); err != nil {
		s.read.Close()
		return err
	}
	if s.bulk, err = openPool(s.path, runtime.NumCPU(), true, mode, "query_only(1)", "busy_timeout(10000)", "cache_size(-2048)",
		"mmap_size(0)", "temp_store(MEMORY)"); err != nil {
		s.read.Close()
		s.probe.Close()
		return err
	}
	return nil
}

// readOnlyMode is the URI parameters that open path for reading only.
// Where SQLite cannot make the WAL's shared-memory file beside it (a
// read-only mount or folder), it is also told the file is immutable, so
// that it needs none; nothing must then change the file meanwhile.
func readOnlyMode(path string) string {
	if !writable(filepath.Dir(path)) || !writable(path) {
		return "mode=ro&immutable=1"
	}
	return "mode=ro"
}

// openPool opens a handle of at most n connections on path, with extra
// URI parameters (a=b&c=d) and pragmas run on each connection.
func openPool(path string, n int, idle bool, extra string, pragmas ...string) (*sql.DB, error) {
	q := url.Values{}
	for _, p := range pragmas {
		q.Add("_pragma", p)
	}
	dsn := "file:" + path + "?" + q.Encode()
	if extra != "" {
		dsn += "&" + extra
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("store: opening %s: %w", path, err)
	}
	db.SetMaxOpenConns(n)
	if idle {
		db.SetMaxIdleConns(n)
	}
	return db, nil
}

// writable reports whether the process may write to path.
func writable(path string) bool {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err == nil {
		f.Close()
		return true
	}
	if errors.Is(err, fs.ErrNotExist) {
		return false
	}
	var pe *fs.PathError
	if errors.As(err, &pe) && strings.Contains(pe.Err.Error(), "is a directory") {
		// A folder: writable when a file can be made in it.
		tmp, err := os.CreateTemp(path, ".syriamap-probe-*")
		if err != nil {
			return false
		}
		tmp.Close()
		os.Remove(tmp.Name())
		return true
	}
	return false
}

// Writable reports whether the archive at path can be opened for writing:
// the file (if it exists) and its folder accept writes.
func Writable(path string) bool {
	dir := filepath.Dir(path)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return writable(dir)
	}
	return writable(path) && writable(dir)
}

// checkPath refuses an archive named by a URL other than PostgreSQL's
// (which Open reads before it comes here): a URL was once taken for a
// path and made a folder named "postgres:" in the working directory. The
// URL is named without its password.
func checkPath(path string) error {
	// "postgres//u:pw@host/db" or "postgres:/…": a URL that lost part of
	// its "://", which a path would keep, password and all, on disk.
	for _, scheme := range []string{"postgres", "postgresql"} {
		if rest, ok := strings.CutPrefix(path, scheme); ok && (strings.HasPrefix(rest, ":") || strings.HasPrefix(rest, "//")) && !strings.HasPrefix(rest, "://") {
			return photo.Errorf(photo.EInvalid, "%s…: --db (SYRIAMAP_DB) looks like a PostgreSQL URL without its \"://\" (postgres://user:password@host/database); nothing was made", scheme)
		}
	}
	u, err := url.Parse(path)
	if err != nil || u.Scheme == "" || !strings.Contains(path, "://") {
		return nil
	}
	if u.User != nil {
		u.User = url.User(u.User.Username())
	}
	return photo.Errorf(photo.EInvalid, "%s is a %s address: --db (SYRIAMAP_DB) takes a SQLite archive's path or a postgres:// URL", u.Redacted(), u.Scheme)
}

// checkArchiveFile refuses, without writing to it, a file at path that is
// not a syriamap archive: not SQLite, or an SQLite database of another
// application's. A missing or empty file, or an empty database, is fine.
func checkArchiveFile(ctx context.Context, path string) error {
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) || err == nil && st.Size() == 0 {
		return nil
	}
	if err != nil {
		return photo.Errorf(photo.EInvalid, "the archive %s cannot be read: %v", path, unwrapPath(err))
	}
	if st.IsDir() {
		return photo.Errorf(photo.EInvalid, "%s is a folder, not an archive file", path)
	}
	// Another process may be creating or migrating the archive this
	// moment: wait for it, as the pools do, rather than call it foreign.
	db, err := openPool(path, 1, false, readOnlyMode(path), "query_only(1)", "busy_timeout(10000)")
	if err != nil {
		return err
	}
	defer db.Close()
	var appID int64
	if err := db.QueryRowContext(ctx, `PRAGMA application_id`).Scan(&appID); err != nil {
		return photo.Errorf(photo.EInvalid, "%s is not a syriamap archive (%v)", path, sqliteMessage(err))
	}
	if appID == applicationID {
		return nil
	}
	rows, err := db.QueryContext(ctx, `SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name`)
	if err != nil {
		return photo.Errorf(photo.EInvalid, "%s is not a syriamap archive (%v)", path, sqliteMessage(err))
	}
	defer rows.Close()
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return fmt.Errorf("store: %s: %w", path, err)
		}
		tables = append(tables, name)
	}
	if err := rows.Err(); err != nil {
		return photo.Errorf(photo.EInvalid, "%s is not a syriamap archive (%v)", path, sqliteMessage(err))
	}
	switch {
	case len(tables) == 0:
		return nil // an empty database becomes an archive
	case appID == 0 && slices.Contains(tables, "schema_migrations") && slices.Contains(tables, "photos"):
		return nil // an archive made before application_id was set
	}
	if len(tables) > 6 {
		tables = append(tables[:6], "…")
	}
	return photo.Errorf(photo.EInvalid, "%s is not a syriamap archive: it is another application's SQLite database (tables %s); it was left as it is",
		path, strings.Join(tables, ", "))
}

// sqliteMessage is an SQLite error's text without the driver's codes.
func sqliteMessage(err error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, " ("); i > 0 && strings.HasSuffix(msg, ")") {
		msg = msg[:i]
	}
	return msg
}

// unwrapPath drops the path from an *fs.PathError, which the caller names
// itself.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Close closes the archive.
func (s *DB) Close() error {
	var errs []error
	for _, db := range []*sql.DB{s.read, s.probe, s.bulk, s.write, s.queue} {
		if db != nil {
			errs = append(errs, db.Close())
		}
	}
	return errors.Join(errs...)
}

// Path returns the file the archive is in.
func (s *DB) Path() string { return s.path }

// ReadOnly reports whether the archive was opened with OpenReadOnly.
func (s *DB) ReadOnly() bool { return s.readOnly }

// writer returns the write handle, or an error saying the archive is
// read-only.
func (s *DB) writer() (*sql.DB, error) {
	if s.write == nil {
		return nil, photo.Errorf(photo.EConflict, "the archive %s is open read-only", s.path)
	}
	return s.write, nil
}

// begin starts a write transaction, holding SQLite's write lock from the
// start. Another writer holding it past the busy timeout is reported as
// such, not as a fault of the input.
func (s *DB) begin(ctx context.Context) (*sql.Tx, error) {
	w, err := s.writer()
	if err != nil {
		return nil, err
	}
	tx, err := w.BeginTx(ctx, nil)
	if err != nil {
		return nil, s.writeErr(err)
	}
	return tx, nil
}

// ErrBusy is the error of a write that waited too long for another
// writer (an import, a correction, a re-geocoding) to finish.
var ErrBusy = photo.Errorf(photo.EUnavailable, "the archive is busy: another import, correction or re-geocoding is writing to it; try again when it is done")

// writeErr turns an engine's error into one the caller can act on: a
// write that waited past the busy timeout (SQLite's "database is locked",
// PostgreSQL's lock_timeout) is ErrBusy, an archive that cannot be
// reached is unavailable, a full disk is EDiskFull.
func (s *DB) writeErr(err error) error {
	switch {
	case isBusy(err):
		return ErrBusy
	case isUnavailable(err):
		return s.unavailable(err)
	}
	return photo.DiskFull(fmt.Errorf("store: %w", err))
}

// isBusy reports whether err is a wait for another writer that ran out:
// SQLite's SQLITE_BUSY, or PostgreSQL's lock_not_available (55P03), which
// a writer's connection answers past its lock_timeout.
func isBusy(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == "55P03"
	}
	msg := err.Error()
	return strings.Contains(msg, "SQLITE_BUSY") || strings.Contains(msg, "database is locked")
}

// isUnavailable reports whether err says the PostgreSQL server cannot be
// reached: a connection refused, reset or closed, or the server shutting
// down or starting up (SQLSTATE class 08, 57P01, 57P02, 57P03). A SQLite
// file's errors are never this.
func isUnavailable(err error) bool {
	if pgconn.Timeout(err) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false // the caller's deadline, not the server's
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return strings.HasPrefix(pe.Code, "08") || pe.Code == "57P01" || pe.Code == "57P02" || pe.Code == "57P03"
	}
	var ce *pgconn.ConnectError
	var ne net.Error
	return errors.As(err, &ce) || errors.As(err, &ne) || errors.Is(err, pgconn.ErrConnClosed) ||
		errors.Is(err, driver.ErrBadConn) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

// unavailable is the error of an archive that cannot be reached (err, as
// isUnavailable reads it): the same request may work in a moment.
func (s *DB) unavailable(err error) error {
	return unreachable(s.path, err)
}

// unreachable returns err, from the archive named archive, as an
// *unreachableError when isUnavailable reads it so, else as it is.
// PostgreSQL's connections (pgConn) pass every error through it, so that
// a write or read that met a server gone away is EUnavailable however the
// store's methods wrap it.
func unreachable(archive string, err error) error {
	var u *unreachableError
	if err == nil || errors.As(err, &u) || !isUnavailable(err) {
		return err
	}
	return &unreachableError{archive: archive, err: err}
}

// unreachableError is an archive that cannot be reached: to errors.As a
// *photo.Error of code EUnavailable, saying so without the driver's
// details; to errors.Is still the driver's error (database/sql retries a
// connection found broken, driver.ErrBadConn, on another).
type unreachableError struct {
	archive string
	err     error
}

// Error is what the log is told: the archive's address (without its
// password) and the driver's words.
func (e *unreachableError) Error() string {
	return "the archive " + e.archive + " cannot be reached (" + pgMessage(e.err) + ")"
}

func (e *unreachableError) Unwrap() error { return e.err }

// As gives the error a reader is shown, who needs neither the
// database's address nor its user.
func (e *unreachableError) As(target any) bool {
	if p, ok := target.(**photo.Error); ok {
		*p = photo.Errorf(photo.EUnavailable, "the archive's database cannot be reached; try again in a few seconds")
		return true
	}
	return false
}

// A constraint a write broke, the same on both engines: SQLite's extended
// result code, PostgreSQL's SQLSTATE (never the words of the message).
type constraint int

const (
	noConstraint constraint = iota
	uniqueConstraint
	foreignKeyConstraint
	checkConstraint
)

// broken is the constraint err reports broken, or noConstraint.
func broken(err error) constraint {
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() {
		case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
			return uniqueConstraint
		case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
			return foreignKeyConstraint
		case sqlite3.SQLITE_CONSTRAINT_CHECK:
			return checkConstraint
		}
		return noConstraint
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "23505":
			return uniqueConstraint
		case "23503":
			return foreignKeyConstraint
		case "23514":
			return checkConstraint
		}
	}
	return noConstraint
}

// isUniqueViolation: err is a write of a key the archive already holds.
func isUniqueViolation(err error) bool { return broken(err) == uniqueConstraint }

// isForeignKeyViolation: err is a write naming a row the archive lacks.
func isForeignKeyViolation(err error) bool { return broken(err) == foreignKeyConstraint }

// reading runs a read under the archive's deadline. q is the read's
// full-text search, if any: a search FTS5 cannot parse is the user's
// error. A query stopped by the deadline is unavailable, with what was
// being read.
func (s *DB) reading(ctx context.Context, q, what string, fn func(ctx context.Context) error) error {
	qctx := ctx
	if s.Timeout > 0 {
		var cancel context.CancelFunc
		qctx, cancel = context.WithTimeout(ctx, s.Timeout)
		defer cancel()
	}
	err := fn(qctx)
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return ctx.Err() // the caller gave up
	case qctx.Err() != nil:
		return photo.Errorf(photo.EUnavailable, "%s took longer than %s and was stopped; try a narrower query", what, s.Timeout)
	case isUnavailable(err):
		return s.unavailable(err)
	case photo.ErrorCode(err) != photo.EInternal:
		return err
	case strings.Contains(err.Error(), "malformed") || strings.Contains(err.Error(), "not a database"):
		return photo.Errorf(photo.ECorrupt, "the archive %s is damaged: %s", s.path, sqliteMessage(err))
	case q != "" && s.badSearch(q):
		return photo.ParamErrorf("q", searchSyntaxMessage, q)
	case errors.Is(err, sql.ErrNoRows):
		return err
	}
	return fmt.Errorf("store: %s: %w", what, err)
}

// badSearch reports whether the search q is one FTS5 refuses, as the
// store reads it on either engine (searchSQL).
func (s *DB) badSearch(q string) bool {
	_, _, err := searchSQL(s.sql(), ftsQuery(q))
	return err != nil
}

// migrate applies the embedded migrations that the database has not seen,
// each in its own transaction, and records them.
func (s *DB) migrate(ctx context.Context) error {
	if _, err := s.write.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied TEXT NOT NULL)`); err != nil {
		return fmt.Errorf("store: %s: %w", s.path, s.writeErr(err))
	}
	pending, err := s.pendingMigrations(ctx, s.write)
	if err != nil {
		return err
	}
	for _, base := range pending {
		if err := s.apply(ctx, base); err != nil {
			return err
		}
	}
	return nil
}

// pendingMigrations returns the file names of the migrations db has not
// applied, in order.
func (s *DB) pendingMigrations(ctx context.Context, db *sql.DB) ([]string, error) {
	names, err := fs.Glob(migrations, s.migrationDir()+"/*.sql")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	applied := map[int]bool{}
	rows, err := db.QueryContext(ctx, `SELECT version FROM schema_migrations`)
	if err != nil {
		return nil, fmt.Errorf("store: %s: reading its migrations: %w", s.path, err)
	}
	defer rows.Close()
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		applied[v] = true
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var pending []string
	for _, name := range names {
		base := filepath.Base(name)
		if !applied[migrationVersion(base)] {
			pending = append(pending, base)
		}
	}
	return pending, nil
}

// migrationSteps fill, in a migration's transaction, what its SQL cannot:
// data made in Go.
var migrationSteps = map[int]func(ctx context.Context, tx *sql.Tx) error{
	9:  func(ctx context.Context, tx *sql.Tx) error { return indexArabic(ctx, tx, &sqliteDialect, 0) },
	33: agencyIDs,
}

// migrationDir is the folder of the engine's migrations in migrations.
func (s *DB) migrationDir() string {
	if s.postgres {
		return "migrations_postgres"
	}
	return "migrations"
}

func migrationVersion(base string) int {
	v, err := strconv.Atoi(strings.SplitN(base, "_", 2)[0])
	if err != nil {
		panic("store: migration " + base + " has no version number")
	}
	return v
}

func (s *DB) apply(ctx context.Context, base string) error {
	version := migrationVersion(base)
	tx, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations WHERE version = ?`, version).Scan(&n); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if n > 0 {
		return nil // another process applied it meanwhile
	}
	body, err := fs.ReadFile(migrations, s.migrationDir()+"/"+base)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, string(body)); err != nil {
		return fmt.Errorf("store: migration %s: %w", base, err)
	}
	if step := migrationSteps[version]; step != nil && !s.postgres {
		if err := step(ctx, tx); err != nil {
			return fmt.Errorf("store: migration %s: %w", base, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied) VALUES (?, ?, ?)`,
		version, base, s.Now().UTC().Format(time.RFC3339)); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: migration %s: %w", base, s.writeErr(err))
	}
	return nil
}

// Integrity runs the engine's full check of the archive and returns nil
// when it finds nothing wrong; a damaged archive is an ECorrupt error
// naming at most three problems. On SQLite it is SQLite's integrity_check
// (every page and index) and FTS5's over the caption index; on PostgreSQL
// what the archive can check of itself (check_postgres.go). QuickCheck is
// the cheaper check.
func (s *DB) Integrity(ctx context.Context) error {
	return s.check(ctx, true)
}

// QuickCheck is the engine's cheap check of the archive: on SQLite its
// quick_check (about a second per 150 MB), which finds damaged pages and
// records, not a mismatch between a table and its indexes; on PostgreSQL
// that the search index holds every photo. A damaged archive is an
// ECorrupt error.
func (s *DB) QuickCheck(ctx context.Context) error {
	return s.check(ctx, false)
}

func (s *DB) check(ctx context.Context, full bool) error {
	problems, err := s.sql().check(ctx, s, full)
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return ctx.Err()
	case isUnavailable(err):
		return s.unavailable(err)
	default:
		return err
	}
	if n := len(problems); n > 3 {
		problems = append(problems[:3], fmt.Sprintf("and %d more problems", n-3))
	}
	if len(problems) > 0 {
		return photo.Errorf(photo.ECorrupt, "the archive %s is damaged: %s", s.path, strings.Join(problems, "; "))
	}
	return nil
}

// Health answers whether the archive can be read, cheaply and without
// waiting for the reader pool: it reads the change counter and the last
// page of the photos table on a connection kept for it, within ctx.
func (s *DB) Health(ctx context.Context) error {
	var v, maxRowid int64
	err := s.probe.QueryRowContext(ctx, `SELECT (SELECT version FROM archive_version WHERE id = 1), (SELECT coalesce(max(rowid), 0) FROM photos)`).Scan(&v, &maxRowid)
	switch {
	case err == nil:
		return s.checkDisk()
	case ctx.Err() != nil:
		return photo.Errorf(photo.EUnavailable, "the archive did not answer in time")
	case isUnavailable(err):
		return s.unavailable(err)
	case strings.Contains(err.Error(), "malformed") || strings.Contains(err.Error(), "not a database"):
		return photo.Errorf(photo.ECorrupt, "the archive %s is damaged: %s", s.path, sqliteMessage(err))
	}
	return fmt.Errorf("store: health: %w", err)
}

// Backup writes a consistent copy of the archive to path, a file which
// must not exist, while readers and writers go on. On SQLite the copy is
// the archive's file, compacted (VACUUM INTO reads one snapshot), with no
// -wal file. A PostgreSQL archive is refused (EInvalid): its database
// administrators back it up (pg_dump, or pg_basebackup and WAL archiving
// for point-in-time recovery).
func (s *DB) Backup(ctx context.Context, path string) error {
	if _, err := os.Stat(path); err == nil {
		return photo.Errorf(photo.EInvalid, "%s already exists; a backup never overwrites a file", path)
	}
	return s.sql().backup(ctx, s, path)
}

// Count returns how many photos the archive holds that ctx's viewer may
// see (for the public, all but the withheld).
func (s *DB) Count(ctx context.Context) (int, error) {
	var n int
	err := s.reading(ctx, "", "counting photos", func(ctx context.Context) error {
		return s.read.QueryRowContext(ctx, `SELECT count(*) FROM photos WHERE `+visible(ctx)).Scan(&n)
	})
	return n, err
}

// notFound turns sql.ErrNoRows into a not-found application error.
func notFound(err error, what string) error {
	if errors.Is(err, sql.ErrNoRows) {
		return photo.Errorf(photo.ENotFound, "%s not found", what)
	}
	return err
}

// column runs a read that selects one text column and returns its values;
// q and what are as for reading.
func (s *DB) column(ctx context.Context, q, what, query string, args ...any) ([]string, error) {
	var out []string
	err := s.reading(ctx, q, what, func(ctx context.Context) error {
		rows, err := s.read.QueryContext(ctx, query, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var v string
			if err := rows.Scan(&v); err != nil {
				return err
			}
			out = append(out, v)
		}
		return rows.Err()
	})
	return out, err
}

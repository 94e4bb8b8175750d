package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/syriamap/syriamap/internal/photo"
)

// IsPostgres reports whether an archive address is a PostgreSQL URL
// (postgres:// or postgresql://) rather than a SQLite file's path.
func IsPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// Redacted is an archive's address as it may be shown: a PostgreSQL URL
// without its password (one that cannot be read, not at all); a file's
// path as it is.
func Redacted(dsn string) string {
	if !IsPostgres(dsn) {
		return dsn
	}
	u, err := url.Parse(dsn)
	if err != nil {
		return "the PostgreSQL archive"
	}
	return u.Redacted()
}

// writerLock is the advisory lock every write transaction takes first:
// writes to one archive are one at a time, across every process that
// serves it, as SQLite's write lock makes them on a file. The custody
// chain and the change counter rely on it (each write reads the head it
// extends).
const writerLock = applicationID

// writerLockTimeout is how long a write waits for the archive's write lock
// (or a row another writer holds) before it is refused as busy (ErrBusy),
// as SQLite's writer waits out its busy_timeout.
const writerLockTimeout = "60s"

// openPostgres opens the archive in the PostgreSQL database at dsn and, unless
// readOnly, brings its schema up to date. The pools mirror SQLite's: readers
// see one snapshot per transaction (REPEATABLE READ), the writer waits for
// the archive's write lock at the start of each transaction.
func openPostgres(ctx context.Context, dsn string, readOnly bool) (*DB, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, photo.Errorf(photo.EInvalid, "%s is not a PostgreSQL address pgx can read: %v", Redacted(dsn), err)
	}
	s := &DB{path: Redacted(dsn), postgres: true, Now: time.Now, Timeout: DefaultTimeout, readOnly: readOnly,
		freeSpace: func(string) (uint64, error) { return 1 << 62, nil }, writes: writesOf(dsn)}
	pool := func(n int, writer bool) *sql.DB {
		c := cfg.Copy()
		if !writer {
			c.RuntimeParams["default_transaction_isolation"] = "repeatable read"
			c.RuntimeParams["default_transaction_read_only"] = "on"
		} else {
			c.RuntimeParams["lock_timeout"] = writerLockTimeout
		}
		db := sql.OpenDB(&pgConnector{base: stdlib.GetConnector(*c), writer: writer, archive: s.path})
		db.SetMaxOpenConns(n)
		db.SetMaxIdleConns(n)
		db.SetConnMaxIdleTime(5 * time.Minute)
		return db
	}
	s.read, s.probe, s.bulk = pool(readers, false), pool(1, false), pool(2, false)
	if !readOnly {
		s.write = pool(1, true)
		// The queue's statements are single statements, never in a
		// transaction: they take no archive write lock.
		s.queue = pool(2, true)
	}
	if err := s.probe.PingContext(ctx); err != nil {
		s.Close()
		var u *unreachableError
		if errors.As(err, &u) {
			err = u.err // the driver's words, once
		}
		return nil, photo.Errorf(photo.EUnavailable, "the PostgreSQL archive %s cannot be reached: %s", s.path, pgMessage(err))
	}
	if readOnly {
		if pending, err := s.pendingMigrations(ctx, s.read); err != nil {
			s.Close()
			return nil, err
		} else if len(pending) > 0 {
			s.Close()
			return nil, photo.Errorf(photo.EInvalid, "the archive %s needs an upgrade (%s) that a read-only open cannot make: open it once with write access", s.path, strings.Join(pending, ", "))
		}
		return s, nil
	}
	if err := s.migrate(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// pgMessage is a PostgreSQL error's message, with its detail when it has one.
func pgMessage(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		if pe.Detail != "" {
			return pe.Message + " (" + pe.Detail + ")"
		}
		return pe.Message
	}
	return err.Error()
}

// pgConnector hands database/sql connections that speak the store's SQL
// (toPostgres) to pgx. Its connections' errors of a server that cannot be
// reached are unreachableErrors naming archive.
type pgConnector struct {
	base    driver.Connector
	writer  bool
	archive string
}

func (c *pgConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.base.Connect(ctx)
	if err != nil {
		return nil, unreachable(c.archive, err)
	}
	return &pgConn{Conn: conn.(*stdlib.Conn), writer: c.writer, archive: c.archive}, nil
}

func (c *pgConnector) Driver() driver.Driver { return c.base.Driver() }

// pgConn rewrites each statement (toPostgres, cached) before pgx runs it.
type pgConn struct {
	*stdlib.Conn
	writer  bool
	archive string
}

// rewritten caches toPostgres: the store's statements are a few hundred
// texts, run over and over.
var rewritten atomic.Pointer[map[string]string]

func init() { rewritten.Store(&map[string]string{}) }

func pgSQL(query string) (string, error) {
	m := *rewritten.Load()
	if q, ok := m[query]; ok {
		return q, nil
	}
	q, err := toPostgres(query)
	if err != nil {
		return "", err
	}
	if len(m) < 4096 {
		next := make(map[string]string, len(m)+1)
		for k, v := range m {
			next[k] = v
		}
		next[query] = q
		rewritten.Store(&next)
	}
	return q, nil
}

func (c *pgConn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

func (c *pgConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	q, err := pgSQL(query)
	if err != nil {
		return nil, err
	}
	st, err := c.Conn.PrepareContext(ctx, q)
	if err != nil {
		return nil, unreachable(c.archive, err)
	}
	return pgStmt{st.(*stdlib.Stmt), c.archive}, nil
}

func (c *pgConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	q, err := pgSQL(query)
	if err != nil {
		return nil, err
	}
	res, err := c.Conn.ExecContext(ctx, q, args)
	return res, unreachable(c.archive, err)
}

func (c *pgConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	q, err := pgSQL(query)
	if err != nil {
		return nil, err
	}
	rows, err := c.Conn.QueryContext(ctx, q, args)
	return wrapRows(c.archive, rows, err)
}

// pgStmt is a prepared statement whose errors of a server that cannot be
// reached are unreachableErrors, as pgConn's are.
type pgStmt struct {
	*stdlib.Stmt
	archive string
}

func (s pgStmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	res, err := s.Stmt.ExecContext(ctx, args)
	return res, unreachable(s.archive, err)
}

func (s pgStmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	rows, err := s.Stmt.QueryContext(ctx, args)
	return wrapRows(s.archive, rows, err)
}

// pgRows are rows whose errors of a server that cannot be reached, met
// while they are read, are unreachableErrors.
type pgRows struct {
	*stdlib.Rows
	archive string
}

// wrapRows wraps a query's rows, or its error, for archive.
func wrapRows(archive string, rows driver.Rows, err error) (driver.Rows, error) {
	if err != nil {
		return nil, unreachable(archive, err)
	}
	return pgRows{rows.(*stdlib.Rows), archive}, nil
}

func (r pgRows) Next(dest []driver.Value) error {
	return unreachable(r.archive, r.Rows.Next(dest))
}

// CheckNamedValue stores a Go bool as 1 or 0, as SQLite does: the
// archive's flags are integers on both engines.
func (c *pgConn) CheckNamedValue(v *driver.NamedValue) error {
	if b, ok := v.Value.(bool); ok {
		v.Value = int64(0)
		if b {
			v.Value = int64(1)
		}
	}
	return nil
}

// BeginTx starts a transaction; the writer's waits for the archive's write
// lock (writerLock) before its first statement.
func (c *pgConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	tx, err := c.Conn.BeginTx(ctx, opts)
	if err != nil {
		return nil, unreachable(c.archive, err)
	}
	if c.writer {
		if _, err := c.Conn.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1)", []driver.NamedValue{{Ordinal: 1, Value: int64(writerLock)}}); err != nil {
			tx.Rollback()
			return nil, unreachable(c.archive, fmt.Errorf("waiting for the archive's write lock: %w", err))
		}
	}
	return pgTx{tx, c.archive}, nil
}

// pgTx is a transaction whose commit, failed for a server that cannot be
// reached, is an unreachableError. (A connection lost during the commit
// leaves unknown whether the server committed; a statement lost before it
// leaves nothing written.)
type pgTx struct {
	driver.Tx
	archive string
}

func (t pgTx) Commit() error { return unreachable(t.archive, t.Tx.Commit()) }

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

// redact is a PostgreSQL URL without its password, to name in messages.
func redact(dsn string) string {
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

// openPostgres opens the archive in the PostgreSQL database at dsn and, unless
// readOnly, brings its schema up to date. The pools mirror SQLite's: readers
// see one snapshot per transaction (REPEATABLE READ), the writer waits for
// the archive's write lock at the start of each transaction.
func openPostgres(ctx context.Context, dsn string, readOnly bool) (*DB, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, photo.Errorf(photo.EInvalid, "%s is not a PostgreSQL address pgx can read: %v", redact(dsn), err)
	}
	s := &DB{path: redact(dsn), postgres: true, Now: time.Now, Timeout: DefaultTimeout, readOnly: readOnly,
		freeSpace: func(string) (uint64, error) { return 1 << 62, nil }, writes: writesOf(dsn)}
	pool := func(n int, writer bool) *sql.DB {
		c := cfg.Copy()
		if !writer {
			c.RuntimeParams["default_transaction_isolation"] = "repeatable read"
			c.RuntimeParams["default_transaction_read_only"] = "on"
		}
		db := sql.OpenDB(&pgConnector{base: stdlib.GetConnector(*c), writer: writer})
		db.SetMaxOpenConns(n)
		db.SetMaxIdleConns(n)
		db.SetConnMaxIdleTime(5 * time.Minute)
		return db
	}
	s.read, s.probe, s.bulk = pool(readers, false), pool(1, false), pool(2, false)
	if !readOnly {
		s.write = pool(1, true)
	}
	if err := s.probe.PingContext(ctx); err != nil {
		s.Close()
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
// (toPostgres) to pgx.
type pgConnector struct {
	base   driver.Connector
	writer bool
}

func (c *pgConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.base.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &pgConn{Conn: conn.(*stdlib.Conn), writer: c.writer}, nil
}

func (c *pgConnector) Driver() driver.Driver { return c.base.Driver() }

// pgConn rewrites each statement (toPostgres, cached) before pgx runs it.
type pgConn struct {
	*stdlib.Conn
	writer bool
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
	q, err := pgSQL(query)
	if err != nil {
		return nil, err
	}
	return c.Conn.Prepare(q)
}

func (c *pgConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	q, err := pgSQL(query)
	if err != nil {
		return nil, err
	}
	return c.Conn.PrepareContext(ctx, q)
}

func (c *pgConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	q, err := pgSQL(query)
	if err != nil {
		return nil, err
	}
	return c.Conn.ExecContext(ctx, q, args)
}

func (c *pgConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	q, err := pgSQL(query)
	if err != nil {
		return nil, err
	}
	return c.Conn.QueryContext(ctx, q, args)
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
	if err != nil || !c.writer {
		return tx, err
	}
	if _, err := c.Conn.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1)", []driver.NamedValue{{Ordinal: 1, Value: int64(writerLock)}}); err != nil {
		tx.Rollback()
		return nil, fmt.Errorf("waiting for the archive's write lock: %w", err)
	}
	return tx, nil
}

package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/syriamap/syriamap/internal/pgtest"
)

// rawArchive opens the archive at path (archivePath's) as another program
// would, with no handle of this package: no custody, no versions, no
// checks. On PostgreSQL its statements go through pgConnector, so that a
// test's SQL, written once as the store's is, is rewritten the same way;
// its transactions take the archive's write lock, as another syriamap
// process's would.
func rawArchive(t testing.TB, path string) *sql.DB {
	t.Helper()
	var db *sql.DB
	if onPostgres {
		cfg, err := pgx.ParseConfig(path)
		if err != nil {
			t.Fatal(err)
		}
		db = sql.OpenDB(&pgConnector{base: stdlib.GetConnector(*cfg), writer: true})
	} else {
		var err error
		if db, err = sql.Open("sqlite", "file:"+path); err != nil {
			t.Fatal(err)
		}
	}
	// One connection: a setting a statement makes holds for the next.
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return db
}

// copyArchive copies the archive at path, which no handle may hold open,
// and returns the copy's path: a file written by VACUUM INTO on SQLite, a
// database made from it as a template on PostgreSQL.
func copyArchive(t testing.TB, path string) string {
	t.Helper()
	if onPostgres {
		return pgtest.Copy(t, path)
	}
	copyPath := filepath.Join(t.TempDir(), "copy.db")
	raw := rawArchive(t, path)
	if _, err := raw.Exec(`VACUUM INTO ?`, copyPath); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	return copyPath
}

// shortenBusyWait makes db's writer wait only briefly for another
// writer's lock: SQLite's busy_timeout, PostgreSQL's lock_timeout on the
// writer's one connection.
func shortenBusyWait(t testing.TB, db *DB) {
	t.Helper()
	stmt := `PRAGMA busy_timeout = 100`
	if onPostgres {
		stmt = `SET lock_timeout = 100`
	}
	if _, err := db.write.ExecContext(context.Background(), stmt); err != nil {
		t.Fatal(err)
	}
}

package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/syriamap/syriamap/internal/photo"
)

// postgresCheck runs the checks a PostgreSQL archive can make of itself,
// in one snapshot: that the search index holds every photo, under the
// photo's rowid; and when full, that every foreign key holds (PostgreSQL
// enforces them, but not for rows written while its triggers were off, as
// a restore with session_replication_role = replica writes them). It
// returns the problems found.
//
// PostgreSQL's pages are not the archive's to check: data checksums
// (initdb --data-checksums) and amcheck's verify_heapam and
// bt_index_check need the server's own settings or a superuser, and are
// its database administrators' to run, as they run its backups.
func postgresCheck(ctx context.Context, s *DB, full bool) ([]string, error) {
	tx, err := s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	problems, err := queryProblems(ctx, tx, `SELECT 'photo ' || id || ' is missing from the search index' FROM photos p
		WHERE NOT EXISTS (SELECT 1 FROM photos_fts f WHERE f.rowid = p.rowid) ORDER BY p.rowid LIMIT 4`)
	if err != nil || !full {
		return problems, err
	}
	keys, err := foreignKeys(ctx, tx)
	if err != nil {
		return nil, err
	}
	for _, k := range keys {
		var n int64
		if err := tx.QueryRowContext(ctx, k.orphans()).Scan(&n); err != nil {
			return nil, fmt.Errorf("store: checking %s: %w", k.name, err)
		}
		if n > 0 {
			problems = append(problems, fmt.Sprintf("%d rows of %s name a row of %s that is not there (%s)", n, k.table, k.refTable, k.name))
		}
	}
	return problems, nil
}

// queryProblems runs a query whose rows are problems, one text each.
func queryProblems(ctx context.Context, tx *sql.Tx, query string) ([]string, error) {
	rows, err := tx.QueryContext(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("store: checking the archive: %w", err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, err
		}
		problems = append(problems, p)
	}
	return problems, rows.Err()
}

// foreignKey is one of the schema's foreign keys: table's columns name
// refTable's refColumns (names quoted as SQL takes them).
type foreignKey struct {
	name, table, refTable string
	columns, refColumns   []string
}

// orphans counts the rows of k.table whose key names no row of
// k.refTable (a key with a NULL column names none: MATCH SIMPLE).
func (k foreignKey) orphans() string {
	var set, match []string
	for i, c := range k.columns {
		set = append(set, "c."+c+" IS NOT NULL")
		match = append(match, "r."+k.refColumns[i]+" = c."+c)
	}
	return `SELECT count(*) FROM ` + k.table + ` c WHERE ` + strings.Join(set, " AND ") +
		` AND NOT EXISTS (SELECT 1 FROM ` + k.refTable + ` r WHERE ` + strings.Join(match, " AND ") + `)`
}

// foreignKeys reads the foreign keys of the archive's schema from
// PostgreSQL's catalog.
func foreignKeys(ctx context.Context, tx *sql.Tx) ([]foreignKey, error) {
	rows, err := tx.QueryContext(ctx, `SELECT c.conname, c.conrelid::regclass::text, c.confrelid::regclass::text,
		array_to_string(ARRAY(SELECT quote_ident(a.attname) FROM unnest(c.conkey) WITH ORDINALITY k(n, i)
			JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.i), ','),
		array_to_string(ARRAY(SELECT quote_ident(a.attname) FROM unnest(c.confkey) WITH ORDINALITY k(n, i)
			JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.i), ',')
		FROM pg_constraint c JOIN pg_namespace ns ON ns.oid = c.connamespace
		WHERE c.contype = 'f' AND ns.nspname = current_schema() ORDER BY c.conname`)
	if err != nil {
		return nil, fmt.Errorf("store: reading the archive's foreign keys: %w", err)
	}
	defer rows.Close()
	var keys []foreignKey
	for rows.Next() {
		var k foreignKey
		var cols, refCols string
		if err := rows.Scan(&k.name, &k.table, &k.refTable, &cols, &refCols); err != nil {
			return nil, err
		}
		k.columns, k.refColumns = strings.Split(cols, ","), strings.Split(refCols, ",")
		keys = append(keys, k)
	}
	return keys, rows.Err()
}

// postgresBackup refuses: a PostgreSQL archive is backed up by the
// server's own tools, which its administrators run already.
// TODO(issue 71): write an SQLite copy with store.Copy once it is in.
func postgresBackup(_ context.Context, s *DB, _ string) error {
	return photo.Errorf(photo.EInvalid, "the archive %s is in PostgreSQL: back it up with PostgreSQL's tools (pg_dump, or pg_basebackup with WAL archiving for point-in-time recovery), or copy it to an SQLite file with syriamap copy", s.path)
}

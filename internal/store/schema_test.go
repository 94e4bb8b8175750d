package store

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/pgtest"
)

// engineOnlyTables are each engine's own search indexes (FTS5's virtual
// tables and their shadows on SQLite, tsvector tables on PostgreSQL),
// which hold the same words in each engine's own form.
func engineOnlyTable(name string) bool {
	return strings.HasPrefix(name, "photos_fts")
}

// schemaColumn is what the schemas must agree on for a column: its kind
// of value, whether it may be NULL, and its place in the primary key.
type schemaColumn struct {
	Kind    string // integer, real, text
	NotNull bool
	PK      int // its position in the primary key, 0 when not in it
}

// schemaTable is a table's columns, foreign keys ("col -> table(col) on
// delete action") and unique column sets.
type schemaTable struct {
	Columns map[string]schemaColumn
	Foreign []string
	Unique  []string
	Checks  int
}

// TestSchemasAgree applies every migration of each engine to a new
// archive and holds the two schemas to the same tables, columns (kind of
// value, NULL or not, primary key), foreign keys, unique keys and
// number of CHECK constraints: a migration added to one engine's history
// and not the other's fails here.
func TestSchemasAgree(t *testing.T) {
	ctx := context.Background()
	lite, err := Open(ctx, filepath.Join(t.TempDir(), "a.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer lite.Close()
	pg, err := Open(ctx, pgtest.Database(t))
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	a, err := sqliteSchema(ctx, lite.read)
	if err != nil {
		t.Fatal(err)
	}
	b, err := postgresSchema(ctx, pg.read)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) < 30 {
		t.Fatalf("SQLite's schema has %d tables; want the archive's", len(a))
	}
	for _, name := range slices.Sorted(maps.Keys(a)) {
		other, ok := b[name]
		if !ok {
			t.Errorf("table %s is in SQLite's schema, not PostgreSQL's", name)
			continue
		}
		for _, d := range tableDiff(a[name], other) {
			t.Errorf("table %s: %s", name, d)
		}
	}
	for name := range b {
		if _, ok := a[name]; !ok {
			t.Errorf("table %s is in PostgreSQL's schema, not SQLite's", name)
		}
	}
}

// tableDiff names what differs between a table on SQLite (a) and on
// PostgreSQL (b).
func tableDiff(a, b schemaTable) []string {
	var out []string
	for _, col := range slices.Sorted(maps.Keys(a.Columns)) {
		other, ok := b.Columns[col]
		switch {
		case !ok:
			out = append(out, "column "+col+" is only on SQLite")
		case other != a.Columns[col]:
			out = append(out, fmt.Sprintf("column %s is %+v on SQLite, %+v on PostgreSQL", col, a.Columns[col], other))
		}
	}
	for col := range b.Columns {
		if _, ok := a.Columns[col]; !ok {
			out = append(out, "column "+col+" is only on PostgreSQL")
		}
	}
	for _, part := range []struct {
		what string
		a, b any
	}{{"foreign keys", a.Foreign, b.Foreign}, {"unique keys", a.Unique, b.Unique}, {"CHECK constraints", a.Checks, b.Checks}} {
		if fmt.Sprint(part.a) != fmt.Sprint(part.b) {
			out = append(out, fmt.Sprintf("%s are %v on SQLite, %v on PostgreSQL", part.what, part.a, part.b))
		}
	}
	return out
}

// sqliteKind is the kind of value SQLite's declared type holds, by its
// affinity rules.
func sqliteKind(declared string) string {
	d := strings.ToUpper(declared)
	switch {
	case strings.Contains(d, "INT"):
		return "integer"
	case strings.Contains(d, "REAL"), strings.Contains(d, "FLOA"), strings.Contains(d, "DOUB"):
		return "real"
	}
	return "text"
}

func sqliteSchema(ctx context.Context, db *sql.DB) (map[string]schemaTable, error) {
	names, err := strings1(ctx, db, `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
	if err != nil {
		return nil, err
	}
	out := map[string]schemaTable{}
	for _, name := range names {
		if engineOnlyTable(name) {
			continue
		}
		tb := schemaTable{Columns: map[string]schemaColumn{}}
		rows, err := db.QueryContext(ctx, `SELECT name, type, "notnull", pk, hidden FROM pragma_table_xinfo(?)`, name)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var col, typ string
			var notNull, pk, hidden int
			if err := rows.Scan(&col, &typ, &notNull, &pk, &hidden); err != nil {
				return nil, err
			}
			// A primary key column is NOT NULL in PostgreSQL whatever it
			// declares; SQLite's INTEGER PRIMARY KEY is too (it is the rowid).
			tb.Columns[col] = schemaColumn{Kind: sqliteKind(typ), NotNull: notNull == 1 || pk > 0, PK: pk}
		}
		rows.Close()
		fks, err := db.QueryContext(ctx, `SELECT "from", "table", "to", on_delete FROM pragma_foreign_key_list(?) ORDER BY "from"`, name)
		if err != nil {
			return nil, err
		}
		for fks.Next() {
			var from, table, to, onDelete string
			if err := fks.Scan(&from, &table, &to, &onDelete); err != nil {
				return nil, err
			}
			tb.Foreign = append(tb.Foreign, fmt.Sprintf("%s -> %s(%s) on delete %s", from, table, to, strings.ToLower(onDelete)))
		}
		fks.Close()
		uniques, err := strings1(ctx, db, `SELECT (SELECT group_concat(name, ',') FROM (SELECT name FROM pragma_index_info(l.name) ORDER BY name))
			FROM pragma_index_list(?) l WHERE l."unique" = 1 AND l.origin = 'u' ORDER BY 1`, name)
		if err != nil {
			return nil, err
		}
		tb.Unique = uniques
		var create string
		if err := db.QueryRowContext(ctx, `SELECT sql FROM sqlite_schema WHERE name = ?`, name).Scan(&create); err != nil {
			return nil, err
		}
		tb.Checks = strings.Count(strings.ToUpper(create), "CHECK (") + strings.Count(strings.ToUpper(create), "CHECK(")
		out[name] = tb
	}
	return out, nil
}

func postgresKind(typ string) string {
	switch typ {
	case "bigint", "integer", "smallint":
		return "integer"
	case "double precision", "real", "numeric":
		return "real"
	}
	return "text"
}

func postgresSchema(ctx context.Context, db *sql.DB) (map[string]schemaTable, error) {
	names, err := strings1(ctx, db, `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`)
	if err != nil {
		return nil, err
	}
	out := map[string]schemaTable{}
	for _, name := range names {
		if engineOnlyTable(name) {
			continue
		}
		tb := schemaTable{Columns: map[string]schemaColumn{}}
		rows, err := db.QueryContext(ctx, `SELECT c.column_name, c.data_type, c.is_nullable = 'NO',
			coalesce((SELECT k.ordinal_position FROM information_schema.key_column_usage k JOIN information_schema.table_constraints tc
				ON tc.constraint_name = k.constraint_name AND tc.table_name = k.table_name
				WHERE tc.constraint_type = 'PRIMARY KEY' AND k.table_name = c.table_name AND k.column_name = c.column_name), 0)
			FROM information_schema.columns c WHERE c.table_schema = 'public' AND c.table_name = ?`, name)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var col, typ string
			var notNull bool
			var pk int
			if err := rows.Scan(&col, &typ, &notNull, &pk); err != nil {
				return nil, err
			}
			tb.Columns[col] = schemaColumn{Kind: postgresKind(typ), NotNull: notNull, PK: pk}
		}
		rows.Close()
		if tb.Foreign, err = strings1(ctx, db, `SELECT a.attname || ' -> ' || cf.relname || '(' || af.attname || ') on delete ' ||
				CASE con.confdeltype WHEN 'c' THEN 'cascade' WHEN 'n' THEN 'set null' WHEN 'r' THEN 'restrict' WHEN 'd' THEN 'set default' ELSE 'no action' END
			FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid JOIN pg_class cf ON cf.oid = con.confrelid
			JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = con.conkey[1]
			JOIN pg_attribute af ON af.attrelid = con.confrelid AND af.attnum = con.confkey[1]
			WHERE con.contype = 'f' AND c.relname = ? ORDER BY 1`, name); err != nil {
			return nil, err
		}
		if tb.Unique, err = strings1(ctx, db, `SELECT (SELECT string_agg(a.attname, ',' ORDER BY a.attname) FROM pg_attribute a
				WHERE a.attrelid = con.conrelid AND a.attnum = ANY (con.conkey))
			FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid WHERE con.contype = 'u' AND c.relname = ? ORDER BY 1`, name); err != nil {
			return nil, err
		}
		if err := db.QueryRowContext(ctx, `SELECT count(*) FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid
			WHERE con.contype = 'c' AND c.relname = ?`, name).Scan(&tb.Checks); err != nil {
			return nil, err
		}
		out[name] = tb
	}
	return out, nil
}

// strings1 runs a query of one text column.
func strings1(ctx context.Context, db *sql.DB, query string, args ...any) ([]string, error) {
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

package store

import (
	"fmt"
	"strings"
)

var postgresDialect = dialect{
	name: "PostgreSQL",
	// The search indexes hold FTS5's tokens (fts5Tokens), with their
	// positions, so that words, phrases and prefixes match as on SQLite.
	indexCaption: `INSERT INTO photos_fts (rowid, words) VALUES (?, CAST(? AS tsvector))`,
	indexArabic:  `INSERT INTO photos_fts_ar (rowid, words) VALUES (?, CAST(? AS tsvector))`,
	words:        tsvectorOf,
	match: func(index, _ string, e *searchExpr) (string, []any) {
		if e == nil {
			return "FALSE", nil
		}
		return "rowid IN (SELECT rowid FROM " + index + " WHERE words @@ CAST(? AS tsquery))", []any{e.tsquery()}
	},
	check:      postgresCheck,
	keysCopied: setIdentities(pgIdentities),
	claimLock:  ` FOR UPDATE SKIP LOCKED`,
}

// A backup copies the archive (Copy), whose opening asks the dialect:
// set here, after the dialect is made.
func init() { postgresDialect.backup = postgresBackup }

// pgIdentities are the identity columns of the PostgreSQL schema (table,
// column), whose sequences a copy that wrote their keys moves past them.
// TestCopyTablesAreTheSchema holds it to the schema.
var pgIdentities = [][2]string{
	{"photos", "rowid"},
	{"events", "id"},
	{"stories", "id"},
	{"story_events", "id"},
	{"confidence_models", "id"},
	{"conflict_event_changes", "seq"},
	{"second_looks", "id"},
}

// setIdentities is the statement that sets each identity's sequence to
// give the key after the table's highest (1 for an empty table).
func setIdentities(cols [][2]string) string {
	var q []string
	for _, c := range cols {
		q = append(q, fmt.Sprintf(`SELECT setval(pg_get_serial_sequence('%[1]s', '%[2]s'), coalesce((SELECT max(%[2]s) FROM %[1]s), 0) + 1, false)`, c[0], c[1]))
	}
	return strings.Join(q, ";\n")
}

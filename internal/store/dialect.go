package store

import "context"

// dialect is what the store says differently to each engine, beyond the
// spellings toPostgres rewrites as statements reach PostgreSQL: full-text
// search, JSON, the engines' own tuning. Each engine's answers live in one
// file (dialect_sqlite.go, dialect_postgres.go); the queries ask s.sql,
// never which engine they run on.
type dialect struct {
	// name is the engine's, for messages: "SQLite" or "PostgreSQL".
	name string
	// importTuning and importUntuning are run on the import's connection
	// before and after it writes ("" for none).
	importTuning, importUntuning string
	// indexCaptions indexes for search at once the captions of the
	// photos after the rowid given, "" when the engine is given their
	// words one photo at a time (indexCaption).
	indexCaptions string
	// indexCaption and indexArabic index one photo's words for search
	// (in photos_fts, photos_fts_ar): its rowid, its words (words').
	indexCaption, indexArabic string
	// words is what the search indexes are given for a text: SQLite's
	// FTS5 reads the text itself; PostgreSQL is given FTS5's tokens of it
	// (fts5Tokens) as a tsvector, which its parser never splits again.
	words func(text string) string
	// match is the condition that a photo's words in a search index
	// (photos_fts or photos_fts_ar) match the search q, in FTS5's syntax,
	// which e is read from (parseSearch; nil matches nothing), and its
	// arguments.
	match func(index, q string, e *searchExpr) (string, []any)
	// check runs the engine's checks of the archive (full: all of them,
	// else the cheap ones) and returns the problems they find
	// (Integrity, QuickCheck).
	check func(ctx context.Context, s *DB, full bool) ([]string, error)
	// backup writes a copy of the archive to the new file path (Backup).
	backup func(ctx context.Context, s *DB, path string) error
	// keysCopied is run at the end of a copy into the archive (Copy),
	// which wrote every key as it was: it moves the engine's key
	// generators past them ("" when the engine needs nothing).
	keysCopied string
	// claimLock ends the subquery that picks the job a server claims (see
	// ClaimJob): PostgreSQL locks the row it picks and skips those other
	// servers hold; SQLite's one writer claims one at a time already.
	claimLock string
}

// sql is the archive engine's dialect.
func (s *DB) sql() *dialect {
	if s.postgres {
		return &postgresDialect
	}
	return &sqliteDialect
}

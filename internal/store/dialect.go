package store

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
	// indexCaptions indexes for search the captions of the photos after
	// the rowid given as its parameter.
	indexCaptions string
	// indexArabic indexes one photo's Arabic words: its rowid, its words.
	indexArabic string
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

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
	// keysCopied is run at the end of a copy into the archive (Copy),
	// which wrote every key as it was: it moves the engine's key
	// generators past them ("" when the engine needs nothing).
	keysCopied string
}

// sql is the archive engine's dialect.
func (s *DB) sql() *dialect {
	if s.postgres {
		return &postgresDialect
	}
	return &sqliteDialect
}

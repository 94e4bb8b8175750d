package store

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
	check:     postgresCheck,
	backup:    postgresBackup,
	claimLock: ` FOR UPDATE SKIP LOCKED`,
}

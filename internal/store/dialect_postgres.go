package store

var postgresDialect = dialect{
	name:          "PostgreSQL",
	indexCaptions: `INSERT INTO photos_fts (rowid, words) SELECT rowid, to_tsvector('simple', caption) FROM photos WHERE rowid > ?`,
	indexArabic:   `INSERT INTO photos_fts_ar (rowid, words) VALUES (?, to_tsvector('simple', ?))`,
	claimLock:     ` FOR UPDATE SKIP LOCKED`,
}

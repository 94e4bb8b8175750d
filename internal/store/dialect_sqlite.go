package store

import "fmt"

var sqliteDialect = dialect{
	name: "SQLite",
	// An import updates every index at once: it gets a bigger page cache
	// than the readers' while it runs, and gives it back.
	importTuning:   fmt.Sprintf(`PRAGMA cache_size = %d`, importCacheKiB),
	importUntuning: fmt.Sprintf(`PRAGMA cache_size = %d`, readerCacheKiB),
	// FTS5 reads the captions itself, all at once.
	indexCaptions: `INSERT INTO photos_fts (rowid, caption) SELECT rowid, caption FROM photos WHERE rowid > ?`,
	indexArabic:   `INSERT INTO photos_fts_ar (rowid, words) VALUES (?, ?)`,
	words:         func(text string) string { return text },
	match: func(index, q string, _ *searchExpr) (string, []any) {
		return "rowid IN (SELECT rowid FROM " + index + " WHERE " + index + " MATCH ?)", []any{q}
	},
	check:  sqliteCheck,
	backup: sqliteBackup,
}

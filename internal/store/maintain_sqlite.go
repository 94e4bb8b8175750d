package store

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/syriamap/syriamap/internal/photo"
)

// sqliteCheck runs SQLite's checks of its file: quick_check, or when full
// integrity_check and FTS5's check of the caption index against the
// captions. It returns the problems they name; an archive SQLite cannot
// even read is an ECorrupt error.
func sqliteCheck(ctx context.Context, s *DB, full bool) ([]string, error) {
	pragma := `PRAGMA quick_check`
	if full {
		pragma = `PRAGMA integrity_check`
	}
	problems, err := pragmaProblems(ctx, s, pragma)
	if err != nil || !full || len(problems) > 0 {
		return problems, err
	}
	// The full-text index against the captions it was built from (a
	// command FTS5 takes as an insert: it needs the writer).
	w, err := s.writer()
	if err != nil {
		return nil, err
	}
	if _, err := w.ExecContext(ctx, `INSERT INTO photos_fts (photos_fts, rank) VALUES ('integrity-check', 1)`); err != nil {
		return []string{fmt.Sprintf("its full-text index does not match the captions (%s)", sqliteMessage(err))}, nil
	}
	return nil, nil
}

// pragmaProblems runs one of SQLite's checks and returns the lines it
// answers other than "ok".
func pragmaProblems(ctx context.Context, s *DB, pragma string) ([]string, error) {
	rows, err := s.probe.QueryContext(ctx, pragma)
	if err != nil {
		return nil, damaged(ctx, s, err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var res string
		if err := rows.Scan(&res); err != nil {
			return nil, fmt.Errorf("store: %s: %w", pragma, err)
		}
		for _, line := range strings.Split(res, "\n") {
			if line != "ok" && line != "" && !strings.HasPrefix(line, "*** ") {
				problems = append(problems, line)
			}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, damaged(ctx, s, err)
	}
	return problems, nil
}

// damaged is the error of a check SQLite could not run over its file.
func damaged(ctx context.Context, s *DB, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return photo.Errorf(photo.ECorrupt, "the archive %s is damaged: %s", s.path, sqliteMessage(err))
}

// sqliteBackup writes the archive, compacted, to the new file path with
// VACUUM INTO, on a connection of its own: the readers are query_only,
// which refuses VACUUM INTO, though it does not write to the archive.
func sqliteBackup(ctx context.Context, s *DB, path string) error {
	mode := ""
	if s.readOnly {
		mode = readOnlyMode(s.path)
	}
	db, err := openPool(s.path, 1, false, mode, "busy_timeout(10000)")
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, `VACUUM INTO ?`, path); err != nil {
		os.Remove(path)
		return fmt.Errorf("store: backing up to %s: %w", path, err)
	}
	return nil
}

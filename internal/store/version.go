package store

import (
	"context"
	"database/sql"
	"fmt"
)

// Version returns the archive's change counter: it is higher after every
// import, correction or re-geocoding that changed something.
func (s *DB) Version(ctx context.Context) (int64, error) {
	var v int64
	err := s.reading(ctx, "", "reading the archive's version", func(ctx context.Context) error {
		return s.read.QueryRowContext(ctx, `SELECT version FROM archive_version WHERE id = 1`).Scan(&v)
	})
	return v, err
}

// bump raises the change counter inside a write transaction.
func bump(ctx context.Context, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, `UPDATE archive_version SET version = version + 1 WHERE id = 1`); err != nil {
		return fmt.Errorf("store: version: %w", err)
	}
	return nil
}

package store

import (
	"context"
	"database/sql"
	"fmt"
)

// Version returns the archive's change counter of its photos: it is
// higher after every import, correction, re-geocoding or mark that
// changed a photo.
func (s *DB) Version(ctx context.Context) (int64, error) {
	v, _, err := s.Versions(ctx)
	return v, err
}

// Versions returns the change counter of the photos (Version) and that
// of everything the archive answers: the photos, stories, added places
// and custody records. The second is higher after any change the first
// is, and after the others too: what a whole answer is named by.
func (s *DB) Versions(ctx context.Context) (photos, all int64, err error) {
	err = s.reading(ctx, "", "reading the archive's version", func(ctx context.Context) error {
		return s.read.QueryRowContext(ctx, `SELECT version, changes FROM archive_version WHERE id = 1`).Scan(&photos, &all)
	})
	return photos, all, err
}

// bump raises both change counters inside a write transaction that
// changed photos.
func bump(ctx context.Context, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, `UPDATE archive_version SET version = version + 1, changes = changes + 1 WHERE id = 1`); err != nil {
		return fmt.Errorf("store: version: %w", err)
	}
	return nil
}

// touch raises the counter of everything inside a write transaction that
// changed what the archive answers but no photo (a story, a place, a
// custody record).
func touch(ctx context.Context, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, `UPDATE archive_version SET changes = changes + 1 WHERE id = 1`); err != nil {
		return fmt.Errorf("store: changes: %w", err)
	}
	return nil
}

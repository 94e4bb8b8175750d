package store

import (
	"context"
	"database/sql"
	"strings"

	"github.com/syriamap/syriamap/internal/photo"
)

// The versions writes expect (photo.Expect): each write of a photo, a
// story or an added place compares the version its editor saw with the
// row's, in its own transaction, before it changes anything.

// checkPhotoVersion refuses a write of photo id over a newer version than
// ctx expects, saying the last change recorded: who, what and when (not
// an export or a check, which change nothing).
func checkPhotoVersion(ctx context.Context, tx *sql.Tx, id string) error {
	return checkVersion(ctx, tx, photo.VersionPhoto, id, `SELECT rev FROM photos WHERE id = ?`,
		`SELECT actor, action, at FROM custody WHERE photo_id = ? AND action NOT IN (`+sqlList(recordsOnly)+`) ORDER BY seq DESC LIMIT 1`)
}

// checkStoryVersion is checkPhotoVersion for the story slug.
func checkStoryVersion(ctx context.Context, tx *sql.Tx, slug string) error {
	return checkVersion(ctx, tx, photo.VersionStory, slug, `SELECT rev FROM stories WHERE slug = ?`,
		`SELECT e.author, e.action, e.at FROM story_events e JOIN stories s ON s.id = e.story WHERE s.slug = ? ORDER BY e.id DESC LIMIT 1`)
}

// checkPlaceVersion is checkPhotoVersion for the added place id.
func checkPlaceVersion(ctx context.Context, tx *sql.Tx, id string) error {
	return checkVersion(ctx, tx, photo.VersionPlace, id, `SELECT rev FROM added_places WHERE id = ?`,
		`SELECT author, action, at FROM events WHERE action IN ('add-place', 'remove-place', 'restore-place', 'move-place')
			AND json_extract(after, '$.id') = ? ORDER BY id DESC LIMIT 1`)
}

func checkVersion(ctx context.Context, tx *sql.Tx, kind, id, revQuery, lastQuery string) error {
	want, ok := photo.Expected(ctx, kind, id)
	if !ok {
		return nil
	}
	var rev int64
	if err := tx.QueryRowContext(ctx, revQuery, id).Scan(&rev); err != nil {
		return notFound(err, kind+" "+id)
	}
	if rev == want {
		return nil
	}
	st := photo.Stale{Kind: kind, ID: id, Saw: want, Version: rev}
	tx.QueryRowContext(ctx, lastQuery, id).Scan(&st.By, &st.Action, &st.At) // none recorded: said without
	return photo.StaleError(st)
}

// PlaceVersion is the added place id's version.
func (s *DB) PlaceVersion(ctx context.Context, id string) (int64, error) {
	var v int64
	err := s.read.QueryRowContext(ctx, `SELECT rev FROM added_places WHERE id = ?`, id).Scan(&v)
	return v, notFound(err, "added place "+id)
}

// sqlList is words as a list of SQL string literals, for IN (…): the
// store's own constant words, never input.
func sqlList(words []string) string {
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = "'" + strings.ReplaceAll(w, "'", "''") + "'"
	}
	return strings.Join(quoted, ", ")
}

package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"

	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/story"
)

// The versions writes expect (photo.Expect): each write of a photo, a
// story or an added place compares the version its editor saw with the
// row's, in its own transaction, before it changes anything.

// checkPhotoVersion refuses a write of photo id over a newer version than
// ctx expects, saying the last change recorded: who, what and when (not
// an export or a check, which change nothing, nor a second look's
// "wanted" step, which a placement writes beside its own record: the
// placement is the change), and a second look's step.
func checkPhotoVersion(ctx context.Context, tx *sql.Tx, id string) error {
	return checkVersion(ctx, tx, photo.VersionPhoto, id, `SELECT rev FROM photos WHERE id = ?`,
		`SELECT actor, action, at, CASE WHEN action = 'second-look' THEN COALESCE(json_extract(detail, '$.step'), '') ELSE '' END FROM custody
			WHERE photo_id = ? AND action NOT IN (`+sqlList(recordsOnly)+`)
			AND NOT (action = 'second-look' AND json_extract(detail, '$.step') = 'wanted') ORDER BY seq DESC LIMIT 1`)
}

// checkStoryVersion is checkPhotoVersion for the story slug, saying too
// what the last save changed (story.Changes).
func checkStoryVersion(ctx context.Context, tx *sql.Tx, slug string) error {
	err := checkVersion(ctx, tx, photo.VersionStory, slug, `SELECT rev FROM stories WHERE slug = ?`,
		`SELECT e.author, e.action, e.at, '' FROM story_events e JOIN stories s ON s.id = e.story WHERE s.slug = ? ORDER BY e.id DESC LIMIT 1`)
	var e *photo.Error
	if errors.As(err, &e) && e.Code == photo.EStale {
		if st, ok := e.Current.(photo.Stale); ok {
			st.Changed = lastStoryChanges(ctx, tx, slug)
			e.Current = st
		}
	}
	return err
}

// lastStoryChanges is what the story slug's last save changed from the
// save before (story.Changes); nil for its first save or records it
// cannot read.
func lastStoryChanges(ctx context.Context, tx *sql.Tx, slug string) []string {
	rows, err := tx.QueryContext(ctx, `SELECT e.snapshot FROM story_events e JOIN stories s ON s.id = e.story WHERE s.slug = ? ORDER BY e.id DESC LIMIT 2`, slug)
	if err != nil {
		return nil
	}
	defer rows.Close()
	var snaps []story.Story
	for rows.Next() {
		var raw string
		var st story.Story
		if rows.Scan(&raw) != nil || json.Unmarshal([]byte(raw), &st) != nil {
			return nil
		}
		snaps = append(snaps, st)
	}
	if len(snaps) < 2 {
		return nil
	}
	return story.Changes(snaps[1], snaps[0])
}

// checkPlaceVersion is checkPhotoVersion for the added place id.
func checkPlaceVersion(ctx context.Context, tx *sql.Tx, id string) error {
	return checkVersion(ctx, tx, photo.VersionPlace, id, `SELECT rev FROM added_places WHERE id = ?`,
		`SELECT author, action, at, '' FROM events WHERE action IN ('add-place', 'remove-place', 'restore-place', 'move-place')
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
	tx.QueryRowContext(ctx, lastQuery, id).Scan(&st.By, &st.Action, &st.At, &st.Step) // none recorded: said without
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

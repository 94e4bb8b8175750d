package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"

	"github.com/syriamap/syriamap/internal/photo"
)

// SetHarm marks photo id with harm (photo.HarmGraphic, photo.HarmWithheld
// or "" for none) for reason, by actor, as a custody record ("harm", with
// the mark before and after and the reason) in the same transaction. A
// mark is a person's decision and always says why: a reason is required.
// It reports whether the mark changed; an unchanged one records nothing.
func (s *DB) SetHarm(ctx context.Context, id, harm, actor, reason string) (changed bool, err error) {
	reason = strings.TrimSpace(reason)
	switch {
	case !photo.ValidHarm(harm):
		return false, photo.ParamErrorf("harm", "a photo is marked %q, %q or nothing, not %q", photo.HarmGraphic, photo.HarmWithheld, harm)
	case reason == "":
		return false, photo.ParamErrorf("reason", "say why the photo is marked (or why the mark is taken off): the reason is kept in its custody record")
	}
	tx, err := s.begin(ctx)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	if err := checkPhotoVersion(ctx, tx, id); err != nil {
		return false, err
	}
	var before string
	err = tx.QueryRowContext(ctx, `SELECT harm FROM photos WHERE id = ?`, id).Scan(&before)
	if errors.Is(err, sql.ErrNoRows) {
		return false, photo.Errorf(photo.ENotFound, "photo %s not found", id)
	}
	if err != nil {
		return false, err
	}
	if before == harm {
		return false, nil
	}
	if _, err := tx.ExecContext(ctx, `UPDATE photos SET harm = ? WHERE id = ?`, harm, id); err != nil {
		return false, err
	}
	c, err := openChain(ctx, tx)
	if err != nil {
		return false, err
	}
	c.public = true // withheld, or shown again: what readers see changes
	if err := c.add(ctx, id, s.Now(), actor, "harm", map[string]any{"before": before, "after": harm, "reason": reason}); err != nil {
		c.stmt.Close()
		return false, err
	}
	if err := s.commit(ctx, tx, c, true); err != nil {
		return false, err
	}
	return true, nil
}

// WithheldFile reports whether the image file with hash sha, or the
// media file at path (a photo's image path), is only withheld photos':
// the public is not served it. A file no photo names is not withheld
// (what else serves it decides).
func (s *DB) WithheldFile(ctx context.Context, sha, path string) (bool, error) {
	var only bool
	err := s.reading(ctx, "", "checking an image's photos", func(ctx context.Context) error {
		return s.read.QueryRowContext(ctx, `WITH owners AS (
				SELECT p.harm FROM files f JOIN photos p ON p.rowid = f.photo WHERE ? != '' AND f.sha256 = ?
				UNION ALL SELECT p.harm FROM images i JOIN photos p ON p.rowid = i.photo WHERE ? != '' AND i.path = ?)
			SELECT coalesce(min(CASE WHEN `+withheld+` THEN 1 ELSE 0 END), 0) FROM owners`, sha, sha, path, path).Scan(&only)
	})
	return only, err
}

// WithheldAmong returns which of the photos ids are withheld.
func (s *DB) WithheldAmong(ctx context.Context, among []string) (map[string]bool, error) {
	out := map[string]bool{}
	if len(among) == 0 {
		return out, nil
	}
	list, err := json.Marshal(among)
	if err != nil {
		return nil, err
	}
	ids, err := s.column(ctx, "", "finding withheld photos",
		`SELECT id FROM photos WHERE `+withheld+` AND id IN (SELECT value FROM json_each(?))`, string(list))
	for _, id := range ids {
		out[id] = true
	}
	return out, err
}

// MarkedPhotos lists the photos marked graphic or withheld, the latest
// imported first, up to limit: id, caption and mark (Harm) only. It is an
// editor's list: for the public it is an EUnauthorized error.
func (s *DB) MarkedPhotos(ctx context.Context, limit int) ([]photo.Photo, error) {
	if !photo.ViewerOf(ctx).SeesWithheld() {
		return nil, photo.Errorf(photo.EUnauthorized, "the marked photos are listed to editors only")
	}
	var out []photo.Photo
	err := s.reading(ctx, "", "listing the marked photos", func(ctx context.Context) error {
		rows, err := s.read.QueryContext(ctx, `SELECT id, caption, harm FROM photos WHERE harm != '' ORDER BY rowid DESC LIMIT ?`, limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var p photo.Photo
			if err := rows.Scan(&p.ID, &p.Caption, &p.Harm); err != nil {
				return err
			}
			out = append(out, p)
		}
		return rows.Err()
	})
	return out, err
}

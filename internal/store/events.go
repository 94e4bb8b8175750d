package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/syriamap/syriamap/internal/photo"
)

// History returns a photo's events, oldest first.
// The events of a placement that waits for its second look (and those
// after it) are its first editor's alone, as the placement is (see
// blindEvents).
func (s *DB) History(ctx context.Context, id string) ([]photo.Event, error) {
	return s.events(ctx, `SELECT at, author, action, photo, before, after, note FROM events e WHERE photo = ? AND `+blindEvents(ctx)+` ORDER BY id`, id)
}

// RecentEvents returns the latest events, newest first, as History
// shows them.
func (s *DB) RecentEvents(ctx context.Context, limit int) ([]photo.Event, error) {
	return s.events(ctx, `SELECT at, author, action, photo, before, after, note FROM events e WHERE `+blindEvents(ctx)+` ORDER BY id DESC LIMIT ?`, limit)
}

// blindEvents is the condition of the events e ctx's viewer may see: all
// but those its first editor made of a photo from the first answer of a
// round still open (waiting for a second or a third editor) on, unless
// the viewer gave that answer (photo.Viewer.SeesAnswer). Events before it
// (an earlier placement) and others' stay.
func blindEvents(ctx context.Context) string {
	v := photo.ViewerOf(ctx)
	if v.Archive {
		return "TRUE"
	}
	other := ""
	if v.Editor != "" {
		other = " AND lower(l.first_by) != lower(" + sqlString(v.Editor) + ")"
	}
	return `NOT EXISTS (SELECT 1 FROM second_looks l WHERE l.photo = e.photo AND l.state IN ('` + photo.LookWaiting + `', '` + photo.LookDisagreed + `')` +
		other + ` AND lower(e.author) = lower(l.first_by) AND e.at >= l.first_at)`
}

func (s *DB) events(ctx context.Context, q string, args ...any) ([]photo.Event, error) {
	out := []photo.Event{}
	err := s.reading(ctx, "", "reading the changes", func(ctx context.Context) error {
		rows, err := s.read.QueryContext(ctx, q, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var e photo.Event
			var at, before, after string
			if err := rows.Scan(&at, &e.By, &e.Action, &e.PhotoID, &before, &after, &e.Note); err != nil {
				return err
			}
			e.At, _ = time.Parse(time.RFC3339, at)
			if err := json.Unmarshal([]byte(before), &e.Before); err != nil {
				return fmt.Errorf("store: event of %s: %w", e.PhotoID, err)
			}
			if err := json.Unmarshal([]byte(after), &e.After); err != nil {
				return fmt.Errorf("store: event of %s: %w", e.PhotoID, err)
			}
			out = append(out, e)
		}
		return rows.Err()
	})
	return out, err
}

package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/syriamap/syriamap/internal/photo"
)

// History returns a photo's events, oldest first.
func (s *DB) History(ctx context.Context, id string) ([]photo.Event, error) {
	return s.events(ctx, `SELECT at, author, action, photo, before, after, note FROM events WHERE photo = ? ORDER BY id`, id)
}

// RecentEvents returns the latest events, newest first.
func (s *DB) RecentEvents(ctx context.Context, limit int) ([]photo.Event, error) {
	return s.events(ctx, `SELECT at, author, action, photo, before, after, note FROM events ORDER BY id DESC LIMIT ?`, limit)
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

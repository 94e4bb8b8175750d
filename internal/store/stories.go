package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/story"
)

// SaveStory stores st (validated by the caller) under its slug, as
// author, in one transaction with its event: a new story is created;
// one whose slug exists is replaced whole when prevSlug names it (an
// editor's save, which may rename it) and refused otherwise, so that a
// new story never overwrites another's. prevSlug is "" for a new story.
// It returns the story as stored.
func (s *DB) SaveStory(ctx context.Context, st story.Story, prevSlug, author, action string) (story.Story, error) {
	tx, err := s.begin(ctx)
	if err != nil {
		return st, err
	}
	defer tx.Rollback()
	if st, err = s.saveStory(ctx, tx, st, prevSlug, author, action); err != nil {
		return st, err
	}
	if err := s.end(ctx, tx, changedAnswers); err != nil {
		return st, s.writeErr(err)
	}
	return st, nil
}

// StorySave is one story to save with SaveStories, as SaveStory takes it.
type StorySave struct {
	Story                    story.Story
	PrevSlug, Author, Action string
}

// SaveStories saves the stories as SaveStory does, all in one
// transaction: all or none. On an error it returns the index of the story
// that failed.
func (s *DB) SaveStories(ctx context.Context, saves []StorySave) (int, error) {
	tx, err := s.begin(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	for i, sv := range saves {
		if _, err := s.saveStory(ctx, tx, sv.Story, sv.PrevSlug, sv.Author, sv.Action); err != nil {
			return i, err
		}
	}
	if err := s.end(ctx, tx, changedAnswers); err != nil {
		return len(saves), s.writeErr(err)
	}
	return len(saves), nil
}

// saveStory is SaveStory within tx.
func (s *DB) saveStory(ctx context.Context, tx *sql.Tx, st story.Story, prevSlug, author, action string) (story.Story, error) {
	now := s.Now().UTC().Format(time.RFC3339)
	var id int64
	var created, oldStatus string
	st.Author = author // a story's author is who created it
	switch err := tx.QueryRowContext(ctx, `SELECT id, created, status, author FROM stories WHERE slug = ?`, prevSlug).Scan(&id, &created, &oldStatus, &st.Author); {
	case prevSlug == "" || errors.Is(err, sql.ErrNoRows):
		if prevSlug != "" {
			return st, photo.Errorf(photo.ENotFound, "no story %q", prevSlug)
		}
		created = now
		if err := tx.QueryRowContext(ctx, `INSERT INTO stories (slug, title, summary, author, status, created, updated) VALUES (?,?,?,?,?,?,?) RETURNING id`,
			st.Slug, st.Title, st.Summary, author, string(st.Status), now, now).Scan(&id); err != nil {
			return st, s.storyErr(err, st.Slug)
		}
		if action == "" {
			action = "created"
		}
	case err != nil:
		return st, fmt.Errorf("store: reading story %q: %w", prevSlug, err)
	default:
		if err := checkStoryVersion(ctx, tx, prevSlug); err != nil {
			return st, err
		}
		_, err := tx.ExecContext(ctx, `UPDATE stories SET slug = ?, title = ?, summary = ?, status = ?, updated = ? WHERE id = ?`,
			st.Slug, st.Title, st.Summary, string(st.Status), now, id)
		if err != nil {
			return st, s.storyErr(err, st.Slug)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM story_steps WHERE story = ?`, id); err != nil {
			return st, s.writeErr(err)
		}
		if action == "" {
			switch {
			case oldStatus != string(st.Status) && st.Status == story.Published:
				action = "published"
			case oldStatus != string(st.Status):
				action = "unpublished"
			default:
				action = "saved"
			}
		}
	}
	for i, step := range st.Steps {
		if step.Photos == nil {
			step.Photos = []story.PhotoRef{}
		}
		photos, _ := json.Marshal(step.Photos)
		if _, err := tx.ExecContext(ctx, `INSERT INTO story_steps (story, position, heading, text, photos, state, highlight) VALUES (?,?,?,?,?,?,?)`,
			id, i, step.Heading, step.Text, string(photos), step.State, step.Highlight); err != nil {
			return st, s.writeErr(err)
		}
	}
	st.Created, st.Updated = created, now
	snapshot, _ := json.Marshal(st)
	if _, err := tx.ExecContext(ctx, `INSERT INTO story_events (story, at, author, action, snapshot) VALUES (?,?,?,?,?)`,
		id, now, author, action, string(snapshot)); err != nil {
		return st, s.writeErr(err)
	}
	if err := tx.QueryRowContext(ctx, `SELECT rev FROM stories WHERE id = ?`, id).Scan(&st.Version); err != nil {
		return st, err
	}
	return st, nil
}

// storyErr names a slug taken by another story.
func (s *DB) storyErr(err error, slug string) error {
	if isUniqueViolation(err) {
		return photo.ParamErrorf("slug", "another story has the slug %q", slug)
	}
	return s.writeErr(err)
}

// Story reads the story with that slug, steps and all.
func (s *DB) Story(ctx context.Context, slug string) (story.Story, error) {
	var st story.Story
	err := s.reading(ctx, "", "reading a story", func(ctx context.Context) error {
		var id int64
		var status string
		err := s.read.QueryRowContext(ctx, `SELECT id, slug, title, summary, author, status, created, updated, rev FROM stories WHERE slug = ?`, slug).
			Scan(&id, &st.Slug, &st.Title, &st.Summary, &st.Author, &status, &st.Created, &st.Updated, &st.Version)
		if errors.Is(err, sql.ErrNoRows) {
			return photo.Errorf(photo.ENotFound, "no story %q", slug)
		}
		if err != nil {
			return err
		}
		st.Status = story.Status(status)
		rows, err := s.read.QueryContext(ctx, `SELECT heading, text, photos, state, highlight FROM story_steps WHERE story = ? ORDER BY position`, id)
		if err != nil {
			return err
		}
		defer rows.Close()
		st.Steps = []story.Step{}
		for rows.Next() {
			var step story.Step
			var photos string
			if err := rows.Scan(&step.Heading, &step.Text, &photos, &step.State, &step.Highlight); err != nil {
				return err
			}
			if err := json.Unmarshal([]byte(photos), &step.Photos); err != nil {
				return fmt.Errorf("story %q: a step's photos: %w", slug, err)
			}
			st.Steps = append(st.Steps, step)
		}
		return rows.Err()
	})
	return st, err
}

// Stories lists the stories, most recently updated first, without their
// steps; drafts only when drafts is true.
func (s *DB) Stories(ctx context.Context, drafts bool) ([]story.Story, error) {
	out := []story.Story{}
	err := s.reading(ctx, "", "listing stories", func(ctx context.Context) error {
		q := `SELECT slug, title, summary, author, status, created, updated FROM stories`
		if !drafts {
			q += ` WHERE status = 'published'`
		}
		rows, err := s.read.QueryContext(ctx, q+` ORDER BY updated DESC, id DESC`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var st story.Story
			var status string
			if err := rows.Scan(&st.Slug, &st.Title, &st.Summary, &st.Author, &status, &st.Created, &st.Updated); err != nil {
				return err
			}
			st.Status = story.Status(status)
			out = append(out, st)
		}
		return rows.Err()
	})
	return out, err
}

// StoryHistory returns a story's saves, oldest first.
func (s *DB) StoryHistory(ctx context.Context, slug string) ([]story.Event, error) {
	out := []story.Event{}
	err := s.reading(ctx, "", "reading a story's history", func(ctx context.Context) error {
		rows, err := s.read.QueryContext(ctx, `SELECT e.at, e.author, e.action, e.snapshot FROM story_events e JOIN stories s ON s.id = e.story
			WHERE s.slug = ? ORDER BY e.id`, slug)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var e story.Event
			var snapshot string
			if err := rows.Scan(&e.At, &e.Author, &e.Action, &snapshot); err != nil {
				return err
			}
			if err := json.Unmarshal([]byte(snapshot), &e.Story); err != nil {
				return err
			}
			out = append(out, e)
		}
		return rows.Err()
	})
	return out, err
}

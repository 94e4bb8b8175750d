package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/syriamap/syriamap/internal/photo"
)

// SetEventLink records actor's decision on whether photo id documents the
// event dataset/eventID: photo.LinkConfirmed, photo.LinkRejected, or ""
// to take the decision back (undo). The decision keeps the event's
// version as the archive holds it, and is a custody record of the photo
// (action "event-link": dataset, version, event, before, after) in the
// same transaction. It reports whether anything changed; the same
// decision again records nothing.
func (s *DB) SetEventLink(ctx context.Context, id, dataset, eventID, decision, actor string) (changed bool, err error) {
	return s.SetEventLinks(ctx, id, dataset, []string{eventID}, decision, actor)
}

// SetEventLinks is SetEventLink for the rows dataset holds of one
// incident (conflict.Candidate.Group), decided together in one
// transaction: every one is linked, or none is (an unknown or retired
// row refuses them all); each decision is its own custody record.
func (s *DB) SetEventLinks(ctx context.Context, id, dataset string, eventIDs []string, decision, actor string) (changed bool, err error) {
	switch decision {
	case photo.LinkConfirmed, photo.LinkRejected, "":
	default:
		return false, photo.ParamErrorf("decision", "a link is %q, %q, or \"\" to take the decision back, not %q", photo.LinkConfirmed, photo.LinkRejected, decision)
	}
	if len(eventIDs) == 0 {
		return false, photo.ParamErrorf("event", "name the event by its id")
	}
	tx, err := s.begin(ctx)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	var one int
	if err := tx.QueryRowContext(ctx, `SELECT 1 FROM photos WHERE id = ?`, id).Scan(&one); errors.Is(err, sql.ErrNoRows) {
		return false, photo.Errorf(photo.ENotFound, "photo %s not found", id)
	} else if err != nil {
		return false, err
	}
	if err := checkPhotoVersion(ctx, tx, id); err != nil {
		return false, err
	}
	c, err := openChain(ctx, tx)
	if err != nil {
		return false, err
	}
	now := s.Now()
	for _, eventID := range eventIDs {
		one, err := setEventLink(ctx, tx, c, now, id, dataset, eventID, decision, actor)
		if err != nil {
			c.stmt.Close()
			return false, err
		}
		changed = changed || one
	}
	if !changed {
		c.stmt.Close()
		return false, nil
	}
	// The photo's features carry its confirmed links to public datasets'
	// events (its events column, which anyone reads).
	if _, err := tx.ExecContext(ctx, `UPDATE photos SET events = (SELECT coalesce(group_concat(dataset || ':' || event, ' '
			ORDER BY event COLLATE BINARY, dataset COLLATE BINARY), '')
		FROM photo_event_links WHERE photo = ?1 AND decision = 'confirmed' AND `+licensed(photo.Public, "dataset")+`)
		WHERE id = ?1`, id); err != nil {
		c.stmt.Close()
		return false, fmt.Errorf("store: %w", err)
	}
	return true, s.commit(ctx, tx, c, true)
}

// setEventLink records one decision of SetEventLinks in tx, and its
// custody record in c; it reports whether it changed anything.
func setEventLink(ctx context.Context, tx *sql.Tx, c *chain, now time.Time, id, dataset, eventID, decision, actor string) (bool, error) {
	var version, retired string
	err := tx.QueryRowContext(ctx, `SELECT version, retired FROM conflict_events WHERE dataset = ? AND id = ?`, dataset, eventID).Scan(&version, &retired)
	if errors.Is(err, sql.ErrNoRows) {
		e := photo.Errorf(photo.ENotFound, "the archive holds no %s event %q: import its dataset first (syriamap events import)", dataset, eventID)
		e.Parameter = "event" // the event named is the request's fault, not the photo
		return false, e
	} else if err != nil {
		return false, err
	}
	if retired != "" && decision == photo.LinkConfirmed {
		e := photo.Errorf(photo.EConflict, "%s event %s was dropped by its dataset in version %s: it cannot be confirmed", dataset, eventID, retired)
		e.Parameter = "event"
		return false, e
	}
	var before string
	err = tx.QueryRowContext(ctx, `SELECT decision FROM photo_event_links WHERE photo = ? AND dataset = ? AND event = ?`, id, dataset, eventID).Scan(&before)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return false, err
	}
	if before == decision {
		return false, nil
	}
	if decision == "" {
		_, err = tx.ExecContext(ctx, `DELETE FROM photo_event_links WHERE photo = ? AND dataset = ? AND event = ?`, id, dataset, eventID)
	} else {
		_, err = tx.ExecContext(ctx, `INSERT INTO photo_event_links (photo, dataset, event, version, decision, by, at) VALUES (?,?,?,?,?,?,?)
			ON CONFLICT (photo, dataset, event) DO UPDATE SET version = excluded.version, decision = excluded.decision, by = excluded.by, at = excluded.at`,
			id, dataset, eventID, version, decision, actor, now.UTC().Format(time.RFC3339))
	}
	if err != nil {
		return false, fmt.Errorf("store: linking photo %s to %s %s: %w", id, dataset, eventID, err)
	}
	return true, c.add(ctx, id, now, actor, "event-link", map[string]any{"dataset": dataset, "version": version, "event": eventID,
		"before": before, "after": decision})
}

// EventLinks lists the decisions on photo id, oldest first, as ctx's
// viewer may see them: an editor every decision, a reader the confirmed
// links to UCDP GED events alone.
func (s *DB) EventLinks(ctx context.Context, id string) ([]photo.EventLink, error) {
	q := `SELECT photo, dataset, version, event, decision, by, at FROM photo_event_links WHERE photo = ?`
	if v := photo.ViewerOf(ctx); !v.SeesDecisions() {
		q += ` AND decision = 'confirmed' AND ` + licensed(v, "dataset")
	}
	return s.eventLinks(ctx, q+` ORDER BY at, dataset COLLATE BINARY, event COLLATE BINARY`, id)
}

// RejectedEvents are the event keys (photo.EventKey) editors ruled out
// for photo id, whoever asks: a reader is not told who decided or when,
// only that a candidate is no longer one (the datasets ctx's viewer may
// see).
func (s *DB) RejectedEvents(ctx context.Context, id string) (map[string]bool, error) {
	links, err := s.eventLinks(ctx, `SELECT photo, dataset, version, event, decision, by, at FROM photo_event_links
		WHERE photo = ? AND decision = 'rejected' AND `+licensed(photo.ViewerOf(ctx), "dataset"), id)
	out := map[string]bool{}
	for _, l := range links {
		out[l.Key()] = true
	}
	return out, err
}

// LinksToEvent lists the confirmed links to event dataset/id, oldest
// first: the photos that document it. A reader is told of none to an
// ACLED event.
func (s *DB) LinksToEvent(ctx context.Context, dataset, id string) ([]photo.EventLink, error) {
	if !photo.ViewerOf(ctx).SeesDataset(dataset) {
		return nil, nil
	}
	return s.eventLinks(ctx, `SELECT photo, dataset, version, event, decision, by, at FROM photo_event_links
		WHERE dataset = ? AND event = ? AND `+shownLinks(ctx, "")+` ORDER BY at, photo`, dataset, id)
}

// shownLinks is the condition of the links (of table alias a, "l." or
// "") that ctx's viewer reads as an event's photos: confirmed, and of a
// photo the viewer may see (visible: a withheld photo is no reader's).
// An event's item, page and collection count by it alone.
func shownLinks(ctx context.Context, a string) string {
	return a + "decision = 'confirmed' AND " + a + "photo IN (SELECT id FROM photos WHERE " + visible(ctx) + ")"
}

func (s *DB) eventLinks(ctx context.Context, q string, args ...any) ([]photo.EventLink, error) {
	out := []photo.EventLink{}
	err := s.reading(ctx, "", "reading event links", func(ctx context.Context) error {
		rows, err := s.read.QueryContext(ctx, q, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var l photo.EventLink
			var at string
			if err := rows.Scan(&l.PhotoID, &l.Dataset, &l.Version, &l.EventID, &l.Decision, &l.By, &at); err != nil {
				return err
			}
			l.At, _ = time.Parse(time.RFC3339, at)
			out = append(out, l)
		}
		return rows.Err()
	})
	return out, err
}

// eventCond is Filter.Event as SQL: the photos linked to the event
// ("ucdp-ged:270123"), or to any (photo.EventAny), as ctx's viewer may
// know of them: a reader of links to UCDP GED events alone.
func eventCond(ctx context.Context, key string) (string, []any) {
	v := photo.ViewerOf(ctx)
	if key == photo.EventAny {
		if v.SeesDecisions() {
			return `(events != '' OR id IN (SELECT photo FROM photo_event_links WHERE decision = 'confirmed'))`, nil
		}
		return `events != ''`, nil
	}
	dataset, id, _ := photo.SplitEventKey(key)
	if !v.SeesDataset(dataset) {
		return `FALSE`, nil
	}
	return `id IN (SELECT photo FROM photo_event_links WHERE dataset = ? AND event = ? AND decision = 'confirmed')`, []any{dataset, id}
}

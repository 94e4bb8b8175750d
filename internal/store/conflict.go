package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/syriamap/syriamap/internal/conflict"
	"github.com/syriamap/syriamap/internal/photo"
)

// EventsSummary is what an import of conflict events did.
type EventsSummary struct {
	Added, Changed, Unchanged, Retired, Restored int
}

// ImportEvents writes the events of one version of dataset, read from
// every file of an import, in one transaction: all of them or none. An
// event whose fields changed is updated; one of another version of the
// dataset that this one lacks is retired (the dataset dropped it: ACLED
// alters and deletes events), one it has again is restored; each change
// is recorded with actor. A version imported again changes nothing.
func (s *DB) ImportEvents(ctx context.Context, dataset, version string, events []conflict.Event, actor string) (EventsSummary, error) {
	sums, err := s.ImportEventSets(ctx, []EventSet{{Dataset: dataset, Version: version, Events: events}}, actor)
	if err != nil {
		return EventsSummary{}, err
	}
	return sums[0], nil
}

// EventSet is one version of a dataset's events, as an import brings it.
type EventSet struct {
	Dataset, Version string
	Events           []conflict.Event
}

// ImportEventSets imports each set as ImportEvents does, all in one
// transaction: every set or none.
func (s *DB) ImportEventSets(ctx context.Context, sets []EventSet, actor string) ([]EventsSummary, error) {
	tx, err := s.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	sums := make([]EventsSummary, len(sets))
	changed := false
	for i, set := range sets {
		if sums[i], err = s.importEventSet(ctx, tx, set, actor); err != nil {
			return nil, err
		}
		changed = changed || sums[i] != EventsSummary{Unchanged: sums[i].Unchanged}
	}
	ch := changedNothing
	if changed {
		ch = changedAnswers
	}
	if err := s.end(ctx, tx, ch); err != nil {
		return nil, s.writeErr(err)
	}
	return sums, nil
}

// importEventSet is ImportEventSets' work for one set, within tx.
func (s *DB) importEventSet(ctx context.Context, tx *sql.Tx, set EventSet, actor string) (EventsSummary, error) {
	var sum EventsSummary
	dataset, version, events := set.Dataset, set.Version, set.Events
	if _, known := photo.Licences[dataset]; !known {
		return sum, photo.Errorf(photo.EInvalid, "no dataset %q: want %s or %s", dataset, conflict.GED, conflict.ACLED)
	}
	if version == "" {
		return sum, photo.Errorf(photo.EInvalid, "the %s events need their dataset's version", dataset)
	}
	at := s.Now().UTC().Format(time.RFC3339)
	// Three statements a row, prepared once: the bundled 16,566 events
	// take a second, not ten.
	var stmts [3]*sql.Stmt
	for i, q := range []string{
		`INSERT INTO conflict_event_changes (at, actor, dataset, id, version, change, before, after) VALUES (?,?,?,?,?,?,?,?)`,
		`SELECT event, retired FROM conflict_events WHERE dataset = ? AND id = ?`,
		`INSERT INTO conflict_events (dataset, id, version, date_start, date_end, date_prec, lon, lat, where_prec, event, retired)
			VALUES (?,?,?,?,?,?,?,?,?,?,'') ON CONFLICT (dataset, id) DO UPDATE SET version = excluded.version, date_start = excluded.date_start,
			date_end = excluded.date_end, date_prec = excluded.date_prec, lon = excluded.lon, lat = excluded.lat, where_prec = excluded.where_prec,
			event = excluded.event, retired = ''`,
	} {
		st, err := tx.PrepareContext(ctx, q)
		if err != nil {
			return sum, fmt.Errorf("store: %w", err)
		}
		defer st.Close()
		stmts[i] = st
	}
	recordStmt, readStmt, upsertStmt := stmts[0], stmts[1], stmts[2]
	record := func(id, change, before, after string) error {
		_, err := recordStmt.ExecContext(ctx, at, actor, dataset, id, version, change, before, after)
		return err
	}
	inImport := make(map[string]bool, len(events))
	for _, e := range events {
		if e.Dataset != dataset {
			return sum, photo.Errorf(photo.EInvalid, "event %s is of %s, not %s: import each dataset on its own", e.ID, e.Dataset, dataset)
		}
		e.Version = version
		inImport[e.ID] = true
		body, err := json.Marshal(e)
		if err != nil {
			return sum, err
		}
		var before, retired string
		err = readStmt.QueryRowContext(ctx, dataset, e.ID).Scan(&before, &retired)
		switch {
		case err == nil && retired == "" && sameEvent(before, e):
			// The same event in another version: it moves to this one,
			// nothing of it changed.
			sum.Unchanged++
		case err == nil:
			change := "changed"
			if retired != "" {
				change = "restored"
				sum.Restored++
			} else {
				sum.Changed++
			}
			if err := record(e.ID, change, before, string(body)); err != nil {
				return sum, err
			}
		default:
			sum.Added++
			if err := record(e.ID, "added", "", string(body)); err != nil {
				return sum, err
			}
		}
		if err == nil && before == string(body) {
			continue // nothing to write, not even the version
		}
		if _, err := upsertStmt.ExecContext(ctx, dataset, e.ID, version, e.DateStart, e.DateEnd, e.DatePrec, e.Lon, e.Lat, e.WherePrec, string(body)); err != nil {
			return sum, fmt.Errorf("store: event %s: %w", e.ID, s.writeErr(err))
		}
	}
	// The events of another version this one lacks: dropped by the
	// dataset, retired.
	rows, err := tx.QueryContext(ctx, `SELECT id, event FROM conflict_events WHERE dataset = ? AND version != ? AND retired = ''`, dataset, version)
	if err != nil {
		return sum, fmt.Errorf("store: %w", err)
	}
	var dropped [][2]string
	for rows.Next() {
		var id, body string
		if err := rows.Scan(&id, &body); err != nil {
			rows.Close()
			return sum, err
		}
		if !inImport[id] {
			dropped = append(dropped, [2]string{id, body})
		}
	}
	rows.Close()
	for _, d := range dropped {
		if _, err := tx.ExecContext(ctx, `UPDATE conflict_events SET retired = ? WHERE dataset = ? AND id = ?`, version, dataset, d[0]); err != nil {
			return sum, fmt.Errorf("store: %w", err)
		}
		if err := record(d[0], "retired", d[1], ""); err != nil {
			return sum, err
		}
		sum.Retired++
	}
	return sum, nil
}

// sameEvent reports whether the stored event (JSON) is e but for its
// version.
func sameEvent(stored string, e conflict.Event) bool {
	var was conflict.Event
	if json.Unmarshal([]byte(stored), &was) != nil {
		return false
	}
	was.Version = e.Version
	return was == e
}

// EventDatasets lists the datasets and versions of the archive's events.
func (s *DB) EventDatasets(ctx context.Context) ([]EventsHeld, error) {
	var out []EventsHeld
	err := s.reading(ctx, "", "counting events", func(ctx context.Context) error {
		rows, err := s.read.QueryContext(ctx, `SELECT dataset, version, count(*) FROM conflict_events WHERE retired = '' GROUP BY dataset, version ORDER BY dataset COLLATE BINARY, version COLLATE BINARY`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var h EventsHeld
			if err := rows.Scan(&h.Dataset, &h.Version, &h.Events); err != nil {
				return err
			}
			out = append(out, h)
		}
		return rows.Err()
	})
	return out, err
}

// Event reads one event, retired or not (a link to it still says what it
// was); retired names the version that dropped it.
func (s *DB) Event(ctx context.Context, dataset, id string) (e conflict.Event, retired string, err error) {
	var body string
	err = s.reading(ctx, "", "reading event "+id, func(ctx context.Context) error {
		return s.read.QueryRowContext(ctx, `SELECT event, retired FROM conflict_events WHERE dataset = ? AND id = ?`, dataset, id).Scan(&body, &retired)
	})
	if err != nil {
		return e, "", notFound(err, "event "+dataset+" "+id)
	}
	return e, retired, json.Unmarshal([]byte(body), &e)
}

// EventChanges lists the changes imports made to an event, oldest first.
func (s *DB) EventChanges(ctx context.Context, dataset, id string) ([]string, error) {
	return s.column(ctx, "", "reading an event's changes",
		`SELECT version || ' ' || change FROM conflict_event_changes WHERE dataset = ? AND id = ? ORDER BY seq`, dataset, id)
}

// longestEventDays bounds how long before a window an event that reaches
// into it may start (GED's date_prec 5 is a year).
const longestEventDays = 400

// EventsMeeting returns the events whose days meet the window from–to
// (YYYYMMDD), the retired aside, as ctx's viewer may see them: ACLED's
// rows to editors alone (its terms keep them from readers).
func (s *DB) EventsMeeting(ctx context.Context, from, to int) ([]conflict.Event, error) {
	// Through the window's index: the unary + keeps SQLite from reading
	// the dataset's rows whole by the primary key instead (400,000 of
	// them for the global GED).
	q := `SELECT event FROM conflict_events WHERE date_start BETWEEN ? AND ? AND date_end >= ? AND retired = ''`
	q += ` AND ` + licensed(photo.ViewerOf(ctx), "+dataset")
	var out []conflict.Event
	err := s.reading(ctx, "", "reading events", func(ctx context.Context) error {
		rows, err := s.read.QueryContext(ctx, q, conflict.AddDays(from, -longestEventDays), to, from)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var body string
			if err := rows.Scan(&body); err != nil {
				return err
			}
			var e conflict.Event
			if err := json.Unmarshal([]byte(body), &e); err != nil {
				return err
			}
			out = append(out, e)
		}
		return rows.Err()
	})
	return out, err
}

// Events returns the events q selects, by first day and id, with how many
// match in all, as ctx's viewer may see them: UCDP GED's alone, the
// retired aside. (ACLED's rows are an editor's, one at a time: never
// listed, mapped or served as a collection.)
func (s *DB) Events(ctx context.Context, q EventQuery) (rows []EventRow, matched int, err error) {
	conds := []string{"e.retired = ''", licensed(photo.Public, "e.dataset")}
	var args []any
	if q.From != 0 {
		conds, args = append(conds, "e.date_end >= ?"), append(args, q.From)
	}
	if q.To != 0 {
		conds, args = append(conds, "e.date_start <= ?"), append(args, q.To)
	}
	if b := q.BBox; b != nil {
		conds, args = append(conds, "e.lon BETWEEN ? AND ? AND e.lat BETWEEN ? AND ?"), append(args, b.Min[0], b.Max[0], b.Min[1], b.Max[1])
	}
	if q.MaxWherePrec > 0 {
		conds, args = append(conds, "e.where_prec <= ?"), append(args, q.MaxWherePrec)
	}
	if len(q.Kinds) > 0 {
		conds = append(conds, "json_extract(e.event, '$.kind') IN ("+strings.Repeat("?,", len(q.Kinds)-1)+"?)")
		for _, k := range q.Kinds {
			args = append(args, k)
		}
	}
	photos := `(SELECT count(*) FROM photo_event_links l WHERE l.dataset = e.dataset AND l.event = e.id AND ` + shownLinks(ctx, "l.") + `)`
	if d := q.Documented; d != nil {
		op := "= 0"
		if *d {
			op = "> 0"
		}
		conds = append(conds, photos+" "+op)
	}
	w := strings.Join(conds, " AND ")
	err = s.reading(ctx, "", "reading events", func(ctx context.Context) error {
		if err := s.read.QueryRowContext(ctx, `SELECT count(*) FROM conflict_events e WHERE `+w, args...).Scan(&matched); err != nil {
			return err
		}
		tail := ""
		if q.Limit > 0 {
			tail = fmt.Sprintf(" LIMIT %d OFFSET %d", q.Limit, q.Offset)
		}
		rs, err := s.read.QueryContext(ctx, `SELECT e.event, `+photos+` FROM conflict_events e WHERE `+w+` ORDER BY e.date_start, e.id COLLATE BINARY`+tail, args...)
		if err != nil {
			return err
		}
		defer rs.Close()
		for rs.Next() {
			var body string
			var r EventRow
			if err := rs.Scan(&body, &r.Photos); err != nil {
				return err
			}
			if err := json.Unmarshal([]byte(body), &r.Event); err != nil {
				return err
			}
			rows = append(rows, r)
		}
		return rs.Err()
	})
	return rows, matched, err
}

// AllEvents returns every event ctx's viewer may see, the retired aside:
// UCDP GED's, and ACLED's to an editor.
func (s *DB) AllEvents(ctx context.Context) ([]conflict.Event, error) {
	q := `SELECT event FROM conflict_events WHERE retired = ''`
	q += ` AND ` + licensed(photo.ViewerOf(ctx), "dataset")
	var out []conflict.Event
	err := s.reading(ctx, "", "reading events", func(ctx context.Context) error {
		rows, err := s.read.QueryContext(ctx, q)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var body []byte
			if err := rows.Scan(&body); err != nil {
				return err
			}
			var e conflict.Event
			if err := json.Unmarshal(body, &e); err != nil {
				return err
			}
			out = append(out, e)
		}
		return rows.Err()
	})
	return out, err
}

package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/syriamap/syriamap/internal/photo"
)

// actionOf names a change in the events.
func actionOf(c photo.Change) (string, error) {
	n := 0
	action := ""
	if c.Place != nil {
		n, action = n+1, "correct"
	}
	if c.Confirm {
		n, action = n+1, "confirm"
	}
	if c.Date != nil || c.Photographer != nil || c.Agency != nil {
		n, action = n+1, "fix"
	}
	switch {
	case n == 0:
		return "", photo.Errorf(photo.EInvalid, "nothing to change: give a place or point, a confirmation, or a date or credit")
	case n > 1:
		return "", photo.Errorf(photo.EInvalid, "one change at a time: a place, a confirmation, or a date and credit")
	case c.Place != nil && (!c.Place.Located || !photo.ValidPoint(c.Place.Lon, c.Place.Lat)):
		return "", &photo.Error{Code: photo.EInvalid, Message: fmt.Sprintf("point %v,%v is out of range (lon −180…180, lat −90…90)", c.Place.Lon, c.Place.Lat), Parameter: "lon"}
	case strings.TrimSpace(c.Author) == "":
		return "", photo.Errorf(photo.EInvalid, "a change needs its author")
	}
	return action, nil
}

// Apply makes the change to each photo, in one transaction, and records an
// event for each: who, when, what it was and what it became, and why. A
// new place or a confirmation survives re-geocoding and re-imports, as
// does a fixed date or credit. It returns how many photos changed; an
// unknown photo id is an ENotFound error and changes nothing.
func (s *DB) Apply(ctx context.Context, ids []string, c photo.Change) (int, error) {
	n, _, err := s.ApplyBatch(ctx, ids, c)
	return n, err
}

// ApplyBatch is Apply returning, too, the batch its events share, which
// Undo takes.
func (s *DB) ApplyBatch(ctx context.Context, ids []string, c photo.Change) (n int, batch int64, err error) {
	action, err := actionOf(c)
	if err != nil {
		return 0, 0, err
	}
	tx, err := s.begin(ctx)
	if err != nil {
		return 0, 0, err
	}
	defer tx.Rollback()
	now := s.Now().UTC()
	stamp := now.Format(time.RFC3339)
	custody, err := openChain(ctx, tx)
	if err != nil {
		return 0, 0, err
	}
	defer custody.stmt.Close()
	for _, id := range ids {
		if err := checkPhotoVersion(ctx, tx, id); err != nil {
			return 0, 0, err
		}
		var p photo.Photo
		rowid, err := photoIn(ctx, tx, id, &p)
		if err != nil {
			return 0, 0, notFound(err, "photo "+id)
		}
		var before, after map[string]any
		switch action {
		case "correct":
			before, after = placeState(&p), placeState(&photo.Photo{Place: *c.Place, Review: photo.ReviewCorrected})
			err = s.correct(ctx, tx, rowid, &p, *c.Place, c.Author, c.Note, stamp)
		case "confirm":
			if !p.Place.Located {
				return 0, 0, photo.Errorf(photo.EInvalid, "photo %s is not placed: there is nothing to confirm; give a place or point", id)
			}
			if err := checkConfirm(ctx, tx, &p, c.Author); err != nil {
				return 0, 0, err
			}
			before = placeState(&p)
			p.Review = photo.ReviewConfirmed
			after = placeState(&p)
			err = s.confirm(ctx, tx, rowid, &p, c.Author, c.Note, stamp)
		case "fix":
			before, after, err = s.fix(ctx, tx, rowid, &p, c, stamp)
		}
		if err != nil {
			return 0, 0, fmt.Errorf("store: changing %s: %w", id, err)
		}
		b, _ := json.Marshal(before)
		a, _ := json.Marshal(after)
		var event int64
		if err := tx.QueryRowContext(ctx, `INSERT INTO events (at, author, action, photo, before, after, note, batch) VALUES (?,?,?,?,?,?,?,?) RETURNING id`,
			stamp, c.Author, action, id, string(b), string(a), c.Note, batch).Scan(&event); err != nil {
			return 0, 0, fmt.Errorf("store: recording the change of %s: %w", id, err)
		}
		if err := custody.add(ctx, id, now, c.Author, action, map[string]any{"event": event, "before": before, "after": after, "note": c.Note}); err != nil {
			return 0, 0, err
		}
		if err := teach(ctx, tx, &p, c, event); err != nil {
			return 0, 0, err
		}
		if action == "confirm" {
			if err := second(ctx, tx, &p, event); err != nil {
				return 0, 0, err
			}
		}
		switch action {
		case "confirm":
			err = s.afterPlacement(ctx, tx, custody, &p, p.Place, "confirm", c.Author, c.Note, now)
		case "correct":
			err = s.afterPlacement(ctx, tx, custody, &p, *c.Place, "correct", c.Author, c.Note, now)
		}
		if err != nil {
			return 0, 0, err
		}
		if batch == 0 { // the first event names the batch
			batch = event
			if _, err := tx.ExecContext(ctx, `UPDATE events SET batch = id WHERE id = ?`, batch); err != nil {
				return 0, 0, err
			}
		}
		n++
	}
	if err := s.commit(ctx, tx, custody, n > 0); err != nil {
		return 0, 0, err
	}
	return n, batch, nil
}

// Undo reverses the placements and confirmations of one batch (see
// ApplyBatch): each photo goes back to the geocoder's place, unchecked,
// and an "undo" event, kept in the history, records it. Only a batch whose
// photos no person had checked before and nobody has changed since can be
// undone whole; otherwise Undo is an EConflict error naming the photo and
// changes nothing. It returns how many photos went back.
func (s *DB) Undo(ctx context.Context, batch int64, author, note string) (int, error) {
	tx, err := s.begin(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `SELECT e.id, e.action, e.photo, e.before,
		(SELECT max(id) FROM events l WHERE l.photo = e.photo) FROM events e WHERE e.batch = ? ORDER BY e.id`, batch)
	if err != nil {
		return 0, err
	}
	type undo struct {
		id, latest    int64
		action, photo string
		before        map[string]any
	}
	var todo []undo
	for rows.Next() {
		var u undo
		var before string
		if err := rows.Scan(&u.id, &u.action, &u.photo, &before, &u.latest); err != nil {
			rows.Close()
			return 0, err
		}
		if err := json.Unmarshal([]byte(before), &u.before); err != nil {
			rows.Close()
			return 0, fmt.Errorf("store: event %d: %w", u.id, err)
		}
		todo = append(todo, u)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	if len(todo) == 0 {
		return 0, photo.Errorf(photo.ENotFound, "no change %d to undo", batch)
	}
	now := s.Now()
	stamp := now.UTC().Format(time.RFC3339)
	custody, err := openChain(ctx, tx)
	if err != nil {
		return 0, err
	}
	defer custody.stmt.Close()
	for _, u := range todo {
		switch {
		case u.action != "correct" && u.action != "confirm":
			return 0, photo.Errorf(photo.EConflict, "change %d is a %s; only placements and confirmations are undone", batch, u.action)
		case u.latest != u.id:
			return 0, photo.Errorf(photo.EConflict, "photo %s has been changed since; undo that change by hand", u.photo)
		case u.before["review"] != string(photo.ReviewAutomatic):
			return 0, photo.Errorf(photo.EConflict, "photo %s had been checked by a person before; undo that change by hand", u.photo)
		}
		var p photo.Photo
		rowid, err := photoIn(ctx, tx, u.photo, &p)
		if err != nil {
			return 0, notFound(err, "photo "+u.photo)
		}
		args, err := placeArgs(p.Geocoded, s.mentionKey)
		if err != nil {
			return 0, err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM corrections WHERE photo = ?`, rowid); err != nil {
			return 0, err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM taught_names WHERE event = ?`, u.id); err != nil {
			return 0, err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE photos SET `+placeSet+`, review='', reviewed_by='', reviewed_at='', updated=? WHERE rowid=?`,
			append(args, stamp, rowid)...); err != nil {
			return 0, fmt.Errorf("store: undoing the change of %s: %w", u.photo, err)
		}
		before, after := placeState(&p), placeState(&photo.Photo{Place: p.Geocoded})
		b, _ := json.Marshal(before)
		a, _ := json.Marshal(after)
		if _, err := tx.ExecContext(ctx, `INSERT INTO events (at, author, action, photo, before, after, note) VALUES (?,?,'undo',?,?,?,?)`,
			stamp, author, u.photo, string(b), string(a), cmp.Or(note, fmt.Sprintf("undoes change %d", batch))); err != nil {
			return 0, err
		}
		if err := custody.add(ctx, u.photo, now, author, "undo", map[string]any{"undoes": batch, "before": before, "after": after, "note": note}); err != nil {
			return 0, err
		}
		if err := resetLooks(ctx, tx, u.photo); err != nil {
			return 0, err
		}
	}
	if err := s.commit(ctx, tx, custody, true); err != nil {
		return 0, err
	}
	return len(todo), nil
}

// teach keeps what a correction teaches: when a photo whose caption's
// words the geocoder could not read as a place (a fallback to what holds
// them, or unplaced) is placed at a gazetteer place, the words become a
// name of that place in this archive (see TaughtNames), until the
// correction is undone. A correction of words the gazetteer does read
// teaches nothing: "in Aleppo" placed at Azaz says where that photo was,
// not that Aleppo is a name of Azaz.
// A later correction of the photo takes back what an earlier one taught.
func teach(ctx context.Context, tx *sql.Tx, p *photo.Photo, c photo.Change, event int64) error {
	if c.Place == nil {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM taught_names WHERE event IN (SELECT id FROM events WHERE photo = ? AND id != ?)`, p.ID, event); err != nil {
		return err
	}
	read := p.Place // the geocoder's reading: kept apart once corrected
	if p.Geocoded.Precision != "" {
		read = p.Geocoded
	}
	if c.Place.ID == "" || strings.TrimSpace(read.Mention) == "" || read.Precision != "fallback" && read.Precision != "none" {
		return nil
	}
	_, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO taught_names (name, place_id, event) VALUES (?,?,?)`, read.Mention, c.Place.ID, event)
	return err
}

// second records a confirmation of a photo placed by a taught spelling
// (its words are a taught name of its place) as standing behind that
// spelling: with the correction that taught it, by another editor, the
// spelling is trusted (see TaughtName.Editors).
func second(ctx context.Context, tx *sql.Tx, p *photo.Photo, event int64) error {
	if p.Place.ID == "" || strings.TrimSpace(p.Place.Mention) == "" {
		return nil
	}
	_, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO taught_names (name, place_id, event)
		SELECT name, place_id, ? FROM taught_names WHERE place_id = ? AND name = ? LIMIT 1`, event, p.Place.ID, p.Place.Mention)
	return err
}

// TaughtName is a spelling the archive's standing corrections taught a
// place (see teach), with how many editors stand behind it: the
// corrections that taught it and the confirmations of photos placed by
// it, by distinct editors (photo.SameEditor: one editor who teaches a
// spelling and confirms a photo it placed is one).
type TaughtName struct {
	Name    string
	Editors int
}

// TaughtNames returns the names the archive's standing corrections taught,
// by place id (see teach).
func (s *DB) TaughtNames(ctx context.Context) (map[string][]TaughtName, error) {
	out := map[string][]TaughtName{}
	err := s.reading(ctx, "", "reading the taught names", func(ctx context.Context) error {
		rows, err := s.read.QueryContext(ctx, `SELECT t.place_id, t.name, coalesce(e.author, '') FROM taught_names t
			LEFT JOIN events e ON e.id = t.event ORDER BY t.place_id COLLATE BINARY, t.name COLLATE BINARY`)
		if err != nil {
			return err
		}
		defer rows.Close()
		var id, name string
		var editors []string
		flush := func() {
			if name != "" || len(editors) > 0 {
				out[id] = append(out[id], TaughtName{Name: name, Editors: photo.CountEditors(editors)})
			}
		}
		for rows.Next() {
			var pid, n, by string
			if err := rows.Scan(&pid, &n, &by); err != nil {
				return err
			}
			if pid != id || n != name {
				flush()
				id, name, editors = pid, n, nil
			}
			editors = append(editors, by)
		}
		flush()
		return rows.Err()
	})
	return out, err
}

// placeState is a photo's place as an event records it.
func placeState(p *photo.Photo) map[string]any {
	m := map[string]any{"place_id": p.Place.ID, "place_name": p.Place.Name, "review": string(orAutomatic(p.Review))}
	if p.Place.Located {
		m["lon"], m["lat"] = p.Place.Lon, p.Place.Lat
	} else {
		m["lon"], m["lat"] = nil, nil
	}
	if p.Place.Precision != "" {
		m["precision"] = p.Place.Precision
	}
	return m
}

func orAutomatic(r photo.Review) photo.Review {
	if r == "" {
		return photo.ReviewAutomatic
	}
	return r
}

// correct shows the photo at place, keeping the geocoder's choice.
func (s *DB) correct(ctx context.Context, tx *sql.Tx, rowid int64, p *photo.Photo, place photo.Place, author, note, stamp string) error {
	gj, err := json.Marshal(p.Geocoded)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE photos SET geocoded = ? WHERE rowid = ?`, string(gj), rowid); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO corrections (photo, place_id, lon, lat, kind, author, note, created)
		VALUES (?,?,?,?,'place',?,?,?)`, rowid, place.ID, place.Lon, place.Lat, author, note, stamp); err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `UPDATE photos SET place_id=?, place_name=?, place_kind=?, governorate=?, gov_pcode=?,
		country=?, lon=?, lat=?, precision='corrected', confidence=1, mention='', mention_key='', note=?, alternatives='[]', updated=?,
		review='corrected', reviewed_by=?, reviewed_at=? WHERE rowid=?`, place.ID, place.Name, place.Kind, place.Governorate,
		place.GovPCode, place.Country, place.Lon, place.Lat, note, stamp, author, stamp, rowid)
	return err
}

// confirm records that the photo's place is right, as it stands.
func (s *DB) confirm(ctx context.Context, tx *sql.Tx, rowid int64, p *photo.Photo, author, note, stamp string) error {
	if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO corrections (photo, place_id, lon, lat, kind, author, note, created)
		VALUES (?,?,?,?,'confirm',?,?,?)`, rowid, p.Place.ID, p.Place.Lon, p.Place.Lat, author, note, stamp); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `UPDATE photos SET review='confirmed', reviewed_by=?, reviewed_at=?, updated=? WHERE rowid=?`,
		author, stamp, stamp, rowid)
	return err
}

// fix sets the photo's date or credit and keeps the fix for re-imports.
func (s *DB) fix(ctx context.Context, tx *sql.Tx, rowid int64, p *photo.Photo, c photo.Change, stamp string) (before, after map[string]any, err error) {
	state := func(d photo.Date, photographer, agency string) map[string]any {
		return map[string]any{"date": nullString(d.String()), "date_precision": nullString(d.Precision),
			"photographer": nullString(photographer), "agency": nullString(agency)}
	}
	before = state(p.Date, p.Photographer, p.Agency)
	d, ph, ag, src := p.Date, p.Photographer, p.Agency, p.DateSource
	var from, to sql.NullInt64
	var prec, fph, fag sql.NullString
	if c.Date != nil {
		d = *c.Date
		a, b := d.Span()
		from, to = sql.NullInt64{Int64: int64(a), Valid: a != 0}, sql.NullInt64{Int64: int64(b), Valid: b != 0}
		prec = sql.NullString{String: d.Precision, Valid: true} // '' fixes the photo as undated
		src = photo.DateEditor
	}
	if c.Photographer != nil {
		ph, fph = *c.Photographer, sql.NullString{String: *c.Photographer, Valid: true}
	}
	if c.Agency != nil {
		id := agencyID(*c.Agency) // one agency under its names
		ag, fag = id, sql.NullString{String: id, Valid: true}
	}
	after = state(d, ph, ag)
	// A later fix of one value keeps the earlier fixes of the others.
	if _, err := tx.ExecContext(ctx, `INSERT INTO fixes (photo, date_from, date_to, date_precision, photographer, agency, author, note, created)
		VALUES (?,?,?,?,?,?,?,?,?) ON CONFLICT (photo) DO UPDATE SET
		date_from = CASE WHEN excluded.date_precision IS NOT NULL THEN excluded.date_from ELSE fixes.date_from END,
		date_to = CASE WHEN excluded.date_precision IS NOT NULL THEN excluded.date_to ELSE fixes.date_to END,
		date_precision = coalesce(excluded.date_precision, fixes.date_precision),
		photographer = coalesce(excluded.photographer, fixes.photographer), agency = coalesce(excluded.agency, fixes.agency),
		author = excluded.author, note = excluded.note, created = excluded.created`,
		rowid, from, to, prec, fph, fag, c.Author, c.Note, stamp); err != nil {
		return nil, nil, err
	}
	r, err := newRow(&photo.Photo{Date: d}, s.mentionKey)
	if err != nil {
		return nil, nil, err
	}
	_, err = tx.ExecContext(ctx, `UPDATE photos SET date_from=?, date_to=?, date_precision=?, date_source=?, month=?, photographer=?, agency=?,
		updated=? WHERE rowid=?`, r.from, r.to, r.prec, dateSource(&photo.Photo{Date: d, DateSource: src}), r.month, ph, ag, stamp, rowid)
	return before, after, err
}

func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// exec runs one write in a transaction of its own; explain, if not nil,
// turns the database's error into one for people.
func (s *DB) exec(ctx context.Context, what, q string, explain func(error) error, args ...any) error {
	tx, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, q, args...); err != nil {
		if explain != nil {
			if e := explain(err); !errors.Is(e, err) {
				return e
			}
		}
		return fmt.Errorf("store: %s: %w", what, err)
	}
	if err := tx.Commit(); err != nil {
		return s.writeErr(err)
	}
	return nil
}

package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/syriamap/syriamap/internal/photo"
)

// AddPlaces keeps places the editors added, all or none, each with an
// event in the history (action "add-place"). The caller has checked
// them (the archive does, against its gazetteer); a repeated id is an
// EConflict error and keeps nothing.
func (s *DB) AddPlaces(ctx context.Context, places []photo.AddedPlace) error {
	tx, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, p := range places {
		names, _ := json.Marshal(append([]string{}, p.Names...))
		if _, err := tx.ExecContext(ctx, `INSERT INTO added_places (id, name, name_ar, names, kind, lon, lat, parent, source, added_by, added_at, country, distinct_place)
			VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)`, p.ID, p.Name, p.NameAr, string(names), p.Kind, p.Lon, p.Lat, p.Parent, p.Source, p.AddedBy, p.AddedAt, p.Country, p.Distinct); err != nil {
			if isUniqueViolation(err) {
				return photo.Errorf(photo.EConflict, "the archive already has a place %s", p.ID)
			}
			return fmt.Errorf("store: adding place %s: %w", p.ID, s.writeErr(err))
		}
		after, _ := json.Marshal(p)
		if _, err := tx.ExecContext(ctx, `INSERT INTO events (at, author, action, photo, before, after, note) VALUES (?,?,'add-place','','{}',?,?)`,
			p.AddedAt, p.AddedBy, string(after), p.Source); err != nil {
			return fmt.Errorf("store: recording place %s: %w", p.ID, err)
		}
	}
	if err := s.end(ctx, tx, changedAnswers); err != nil {
		return s.writeErr(err)
	}
	return nil
}

// AddedPlaces returns the places the editors added and did not remove,
// in the order they were added.
func (s *DB) AddedPlaces(ctx context.Context) ([]photo.AddedPlace, error) {
	var out []photo.AddedPlace
	err := s.reading(ctx, "", "reading the added places", func(ctx context.Context) error {
		rows, err := s.read.QueryContext(ctx, `SELECT id, name, name_ar, names, kind, lon, lat, parent, source, added_by, added_at, country, distinct_place
			FROM added_places WHERE removed_at = '' ORDER BY added_at, id`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var p photo.AddedPlace
			var names string
			if err := rows.Scan(&p.ID, &p.Name, &p.NameAr, &names, &p.Kind, &p.Lon, &p.Lat, &p.Parent, &p.Source, &p.AddedBy, &p.AddedAt, &p.Country, &p.Distinct); err != nil {
				return err
			}
			if err := json.Unmarshal([]byte(names), &p.Names); err != nil {
				return fmt.Errorf("store: the names of place %s: %w", p.ID, err)
			}
			out = append(out, p)
		}
		return rows.Err()
	})
	return out, err
}

// SaveConfidenceModel keeps a confidence model refitted on reviews
// answers (its JSON); the newest is the archive's.
func (s *DB) SaveConfidenceModel(ctx context.Context, model []byte, reviews int) error {
	return s.exec(ctx, "keeping the refitted confidence model", `INSERT INTO confidence_models (fitted_at, reviews, model) VALUES (?,?,?)`,
		nil, s.Now().UTC().Format(time.RFC3339), reviews, string(model))
}

// ConfidenceModel returns the archive's newest refitted confidence model
// (its JSON), or nil when it has none.
func (s *DB) ConfidenceModel(ctx context.Context) ([]byte, error) {
	var model string
	err := s.reading(ctx, "", "reading the confidence model", func(ctx context.Context) error {
		return s.read.QueryRowContext(ctx, `SELECT model FROM confidence_models ORDER BY id DESC LIMIT 1`).Scan(&model)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return []byte(model), err
}

// Reviewed is a photo a person has checked, as the refit of the
// confidence reads it: its caption and the place the person gave or
// confirmed.
type Reviewed struct {
	Caption   string
	Corrected bool // else confirmed
	PlaceID   string
	Lon, Lat  float64
}

// ReviewedPhotos returns the placed photos a person has confirmed or
// corrected.
func (s *DB) ReviewedPhotos(ctx context.Context) ([]Reviewed, error) {
	var out []Reviewed
	err := s.reading(ctx, "", "reading the reviewed photos", func(ctx context.Context) error {
		rows, err := s.read.QueryContext(ctx, `SELECT caption, review = 'corrected', place_id, lon, lat FROM photos
			WHERE review IN ('confirmed', 'corrected') AND lon IS NOT NULL ORDER BY rowid`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var r Reviewed
			if err := rows.Scan(&r.Caption, &r.Corrected, &r.PlaceID, &r.Lon, &r.Lat); err != nil {
				return err
			}
			out = append(out, r)
		}
		return rows.Err()
	})
	return out, err
}

// ChangePlace removes, restores or moves an added place, with an event
// in the history and a custody record, in one transaction. A removal
// takes back the corrections that placed photos at the place (each photo
// returns to the geocoder's reading, with its own event and custody
// record); the photos the geocoder placed there are the caller's to
// re-geocode (it has the gazetteer). It returns the photos that were at
// the place.
func (s *DB) ChangePlace(ctx context.Context, c photo.PlaceChange) (photos []string, err error) {
	if strings.TrimSpace(c.Reason) == "" {
		return nil, photo.ParamErrorf("reason", "say why the place is removed, restored or moved: the reason is kept in the custody record")
	}
	tx, err := s.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	if err := checkPlaceVersion(ctx, tx, c.ID); err != nil {
		return nil, err
	}
	var before photo.AddedPlace
	var removedAt string
	var names string
	err = tx.QueryRowContext(ctx, `SELECT id, name, name_ar, names, kind, lon, lat, parent, source, added_by, added_at, country, distinct_place, removed_at
		FROM added_places WHERE id = ?`, c.ID).Scan(&before.ID, &before.Name, &before.NameAr, &names, &before.Kind, &before.Lon, &before.Lat,
		&before.Parent, &before.Source, &before.AddedBy, &before.AddedAt, &before.Country, &before.Distinct, &removedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, photo.Errorf(photo.ENotFound, "no place %s was added by an editor (only added places can be removed or moved)", c.ID)
	}
	if err != nil {
		return nil, err
	}
	json.Unmarshal([]byte(names), &before.Names)
	now := s.Now()
	stamp := now.UTC().Format(time.RFC3339)
	action, after := "", before
	switch {
	case c.Remove:
		if removedAt != "" {
			return nil, photo.Errorf(photo.EConflict, "place %s was removed already (%s)", c.ID, removedAt)
		}
		action = "remove-place"
		_, err = tx.ExecContext(ctx, `UPDATE added_places SET removed_at = ?, removed_by = ? WHERE id = ?`, stamp, c.Author, c.ID)
	case c.Restore:
		if removedAt == "" {
			return nil, photo.Errorf(photo.EConflict, "place %s is not removed", c.ID)
		}
		action = "restore-place"
		_, err = tx.ExecContext(ctx, `UPDATE added_places SET removed_at = '', removed_by = '' WHERE id = ?`, c.ID)
	case c.Lon != nil && c.Lat != nil:
		if removedAt != "" {
			return nil, photo.Errorf(photo.EConflict, "place %s is removed: restore it before moving it", c.ID)
		}
		action, after.Lon, after.Lat = "move-place", *c.Lon, *c.Lat
		_, err = tx.ExecContext(ctx, `UPDATE added_places SET lon = ?, lat = ? WHERE id = ?`, after.Lon, after.Lat, c.ID)
	default:
		return nil, photo.Errorf(photo.EInvalid, "say what to do with place %s: remove, restore or a new point", c.ID)
	}
	if err != nil {
		return nil, s.writeErr(err)
	}
	// The photos the change concerns: those at the place, and for a
	// place brought back, those its removal took from it.
	if c.Restore {
		var last string
		err := tx.QueryRowContext(ctx, `SELECT after FROM events WHERE action = 'remove-place' AND json_extract(after, '$.id') = ? ORDER BY id DESC LIMIT 1`, c.ID).Scan(&last)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, err
		}
		var was struct {
			Photos []string `json:"photos"`
		}
		json.Unmarshal([]byte(last), &was)
		photos = was.Photos
	} else if photos, err = column(ctx, tx, `SELECT id FROM photos WHERE place_id = ? ORDER BY rowid`, c.ID); err != nil {
		return nil, err
	}
	custody, err := openChain(ctx, tx)
	if err != nil {
		return nil, err
	}
	defer custody.stmt.Close()
	if c.Remove {
		if err := s.unplaceCorrections(ctx, tx, custody, c, now); err != nil {
			return nil, err
		}
	}
	b, _ := json.Marshal(before)
	a, _ := json.Marshal(struct {
		photo.AddedPlace
		Photos []string `json:"photos,omitempty"`
	}{after, photos})
	if _, err := tx.ExecContext(ctx, `INSERT INTO events (at, author, action, photo, before, after, note) VALUES (?,?,?,'',?,?,?)`,
		stamp, c.Author, action, string(b), string(a), c.Reason); err != nil {
		return nil, fmt.Errorf("store: recording the change of place %s: %w", c.ID, err)
	}
	detail := map[string]any{"place": c.ID, "name": before.Name, "reason": c.Reason, "photos": len(photos)}
	if action == "move-place" {
		detail["before"], detail["after"] = [2]float64{before.Lon, before.Lat}, [2]float64{after.Lon, after.Lat}
	}
	if err := custody.add(ctx, "", now, c.Author, action, detail); err != nil {
		return nil, err
	}
	if action == "move-place" {
		if err := s.movePlaced(ctx, tx, custody, c, after, now); err != nil {
			return nil, err
		}
	}
	if err := s.commit(ctx, tx, custody, true); err != nil {
		return nil, err
	}
	return photos, nil
}

// unplaceCorrections takes back the corrections that placed photos at a
// place being removed: each photo returns to the geocoder's reading,
// unchecked, with an event and a custody record saying why.
func (s *DB) unplaceCorrections(ctx context.Context, tx *sql.Tx, custody *chain, c photo.PlaceChange, now time.Time) error {
	ids, err := column(ctx, tx, `SELECT p.id FROM corrections k JOIN photos p ON p.rowid = k.photo WHERE k.place_id = ? ORDER BY p.rowid`, c.ID)
	if err != nil {
		return err
	}
	stamp := now.UTC().Format(time.RFC3339)
	note := fmt.Sprintf("place %s removed: %s", c.ID, c.Reason)
	for _, id := range ids {
		var p photo.Photo
		rowid, err := photoIn(ctx, tx, id, &p)
		if err != nil {
			return notFound(err, "photo "+id)
		}
		args, err := placeArgs(p.Geocoded, s.mentionKey)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM corrections WHERE photo = ?`, rowid); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE photos SET `+placeSet+`, geocoded='', review='', reviewed_by='', reviewed_at='', updated=? WHERE rowid=?`,
			append(args, stamp, rowid)...); err != nil {
			return fmt.Errorf("store: returning %s to the geocoder: %w", id, err)
		}
		before, after := placeState(&p), placeState(&photo.Photo{Place: p.Geocoded})
		b, _ := json.Marshal(before)
		a, _ := json.Marshal(after)
		if _, err := tx.ExecContext(ctx, `INSERT INTO events (at, author, action, photo, before, after, note) VALUES (?,?,'unplace',?,?,?,?)`,
			stamp, c.Author, id, string(b), string(a), note); err != nil {
			return err
		}
		if err := custody.add(ctx, id, now, c.Author, "unplace", map[string]any{"before": before, "after": after, "note": note}); err != nil {
			return err
		}
		if err := resetLooks(ctx, tx, id); err != nil {
			return err
		}
	}
	return nil
}

// column reads one column of strings in a transaction.
func column(ctx context.Context, tx *sql.Tx, query string, args ...any) ([]string, error) {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// movePlaced moves the photos shown at a place that moved: a person's
// placement there moves with it, with a custody record ("move") saying
// where it was and is, so that verify finds the row as its custody says.
func (s *DB) movePlaced(ctx context.Context, tx *sql.Tx, custody *chain, c photo.PlaceChange, to photo.AddedPlace, now time.Time) error {
	ids, err := column(ctx, tx, `SELECT p.id FROM corrections k JOIN photos p ON p.rowid = k.photo WHERE k.place_id = ? ORDER BY p.rowid`, c.ID)
	if err != nil {
		return err
	}
	stamp := now.UTC().Format(time.RFC3339)
	// The photos the geocoder put there move too: their records say so,
	// as the geocoder's import records said where they were.
	auto, err := column(ctx, tx, `SELECT p.id FROM photos p WHERE p.place_id = ? AND p.geocoded = ''
		AND NOT EXISTS (SELECT 1 FROM corrections k WHERE k.photo = p.rowid) ORDER BY p.rowid`, c.ID)
	if err != nil {
		return err
	}
	for _, id := range append(ids, auto...) {
		var p photo.Photo
		if _, err := photoIn(ctx, tx, id, &p); err != nil {
			return notFound(err, "photo "+id)
		}
		before := placeState(&p)
		p.Place.Lon, p.Place.Lat = to.Lon, to.Lat
		if err := custody.add(ctx, id, now, c.Author, "move", map[string]any{"before": before, "after": placeState(&p), "note": "place " + c.ID + " moved: " + c.Reason}); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE corrections SET lon = ?, lat = ? WHERE place_id = ?`, to.Lon, to.Lat, c.ID); err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `UPDATE photos SET lon = ?, lat = ?, updated = ? WHERE place_id = ?`, to.Lon, to.Lat, stamp, c.ID)
	return err
}

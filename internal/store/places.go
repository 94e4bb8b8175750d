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
			if strings.Contains(err.Error(), "UNIQUE") {
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
	if err := touch(ctx, tx); err != nil {
		return err
	}
	if err := s.committed(tx); err != nil {
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
			FROM added_places WHERE removed_at = '' ORDER BY added_at, rowid`)
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

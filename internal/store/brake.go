package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// BrakeRecords are the sign-in brake's records (auth.Records): strikes by
// key and, by name, the times of checked guesses, oldest first.
type BrakeRecords struct {
	Strikes map[string]BrakeStrike
	Guesses map[string][]time.Time
}

// BrakeStrike is a key's failed sign-ins and when its wait ends.
type BrakeStrike struct {
	Failures int
	Until    time.Time
}

// UpdateBrake reads the strikes of keys and the guesses at names into
// fresh records, runs change on them and keeps what it leaves for those
// keys and names (one it deleted is forgotten), in one write transaction:
// every server on the archive takes its turn, so that none reads records
// another is changing. It forgets too the strikes whose wait ended before
// strikesBefore and the guesses made at or before guessesUpTo.
func (s *DB) UpdateBrake(ctx context.Context, keys, names []string, strikesBefore, guessesUpTo time.Time, change func(*BrakeRecords)) error {
	tx, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	r, err := readBrake(ctx, tx, keys, names)
	if err != nil {
		return fmt.Errorf("store: reading the sign-in brake: %w", err)
	}
	change(r)
	if err := keepBrake(ctx, tx, r, keys, names); err != nil {
		return fmt.Errorf("store: keeping the sign-in brake: %w", s.writeErr(err))
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM signin_strikes WHERE wait_until < ?`, strikesBefore.UnixNano()); err != nil {
		return fmt.Errorf("store: forgetting old sign-in strikes: %w", s.writeErr(err))
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM signin_guesses WHERE guessed <= ?`, guessesUpTo.UnixNano()); err != nil {
		return fmt.Errorf("store: forgetting old sign-in guesses: %w", s.writeErr(err))
	}
	if err := tx.Commit(); err != nil {
		return s.writeErr(err)
	}
	return nil
}

// ReadBrake reads the strikes of keys and the guesses at names, as
// UpdateBrake would, outside a write transaction: what a brake reads
// before it writes, so that a client told to wait costs a read.
func (s *DB) ReadBrake(ctx context.Context, keys, names []string) (*BrakeRecords, error) {
	var r *BrakeRecords
	err := s.reading(ctx, "", "reading the sign-in brake", func(ctx context.Context) error {
		var err error
		r, err = readBrake(ctx, s.read, keys, names)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("store: reading the sign-in brake: %w", err)
	}
	return r, nil
}

// brakeReader is a transaction or the read pool.
type brakeReader interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}

// readBrake reads the records of keys and names.
func readBrake(ctx context.Context, tx brakeReader, keys, names []string) (*BrakeRecords, error) {
	r := &BrakeRecords{Strikes: map[string]BrakeStrike{}, Guesses: map[string][]time.Time{}}
	for _, k := range keys {
		var failures int
		var until int64
		err := tx.QueryRowContext(ctx, `SELECT failures, wait_until FROM signin_strikes WHERE key = ?`, k).Scan(&failures, &until)
		switch {
		case err == sql.ErrNoRows:
		case err != nil:
			return nil, err
		default:
			r.Strikes[k] = BrakeStrike{Failures: failures, Until: time.Unix(0, until)}
		}
	}
	for _, name := range names {
		g, err := guessesAt(ctx, tx, name)
		if err != nil {
			return nil, err
		}
		if len(g) > 0 {
			r.Guesses[name] = g
		}
	}
	return r, nil
}

// guessesAt reads the times of the guesses at name, oldest first.
func guessesAt(ctx context.Context, tx brakeReader, name string) ([]time.Time, error) {
	rows, err := tx.QueryContext(ctx, `SELECT guessed FROM signin_guesses WHERE name = ? ORDER BY guessed`, name)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var g []time.Time
	for rows.Next() {
		var at int64
		if err := rows.Scan(&at); err != nil {
			return nil, err
		}
		g = append(g, time.Unix(0, at))
	}
	return g, rows.Err()
}

// keepBrake writes what r holds of keys and names, and deletes what it
// does not.
func keepBrake(ctx context.Context, tx *sql.Tx, r *BrakeRecords, keys, names []string) error {
	for _, k := range keys {
		if _, err := tx.ExecContext(ctx, `DELETE FROM signin_strikes WHERE key = ?`, k); err != nil {
			return err
		}
		if st, ok := r.Strikes[k]; ok {
			if _, err := tx.ExecContext(ctx, `INSERT INTO signin_strikes (key, failures, wait_until) VALUES (?, ?, ?)`, k, st.Failures, st.Until.UnixNano()); err != nil {
				return err
			}
		}
	}
	for _, name := range names {
		if _, err := tx.ExecContext(ctx, `DELETE FROM signin_guesses WHERE name = ?`, name); err != nil {
			return err
		}
		for _, at := range r.Guesses[name] {
			if _, err := tx.ExecContext(ctx, `INSERT INTO signin_guesses (name, guessed) VALUES (?, ?)`, name, at.UnixNano()); err != nil {
				return err
			}
		}
	}
	return nil
}

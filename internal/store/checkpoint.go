package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Head is the chain's head now: its last record (zero for an empty
// chain).
func (s *DB) Head(ctx context.Context) (Checkpoint, error) {
	var cp Checkpoint
	err := s.read.QueryRowContext(ctx, `SELECT seq, hash, at FROM custody ORDER BY seq DESC LIMIT 1`).Scan(&cp.Seq, &cp.Hash, &cp.At)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return cp, fmt.Errorf("store: reading the custody chain's head: %w", err)
	}
	return cp, nil
}

// CheckSince reports how the chain stands against a checkpoint taken
// earlier: it must still hold the checkpoint's record, unchanged (and
// VerifyCustody shows every record after it follows from it). It names
// the records lost otherwise.
func (s *DB) CheckSince(ctx context.Context, cp Checkpoint) ([]ChainProblem, error) {
	if cp.Seq == 0 {
		return nil, nil
	}
	var last int64
	if err := s.read.QueryRowContext(ctx, `SELECT coalesce(max(seq), 0) FROM custody`).Scan(&last); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	var hash string
	err := s.read.QueryRowContext(ctx, `SELECT hash FROM custody WHERE seq = ?`, cp.Seq).Scan(&hash)
	switch {
	case errors.Is(err, sql.ErrNoRows) && last < cp.Seq:
		return []ChainProblem{{Seq: cp.Seq, What: fmt.Sprintf("the checkpoint of %s names record %d, but the chain ends at record %d: records %d to %d were removed",
			cp.At, cp.Seq, last, last+1, cp.Seq)}}, nil
	case errors.Is(err, sql.ErrNoRows):
		return []ChainProblem{{Seq: cp.Seq, What: fmt.Sprintf("the checkpoint of %s names record %d, which the chain no longer holds", cp.At, cp.Seq)}}, nil
	case err != nil:
		return nil, fmt.Errorf("store: %w", err)
	case hash != cp.Hash:
		return []ChainProblem{{Seq: cp.Seq, What: fmt.Sprintf("record %d is not the one the checkpoint of %s names (hash %s, now %s): "+
			"records up to it were removed or rewritten, and others written in their place", cp.Seq, cp.At, cp.Hash, hash)}}, nil
	}
	return nil, nil
}

// Links calls fn for each record of the chain from from to to (by seq),
// in order.
func (s *DB) Links(ctx context.Context, from, to int64, fn func(Link) error) error {
	rows, err := s.read.QueryContext(ctx, `SELECT seq, prev, hash FROM custody WHERE seq BETWEEN ? AND ? ORDER BY seq`, from, to)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var l Link
		if err := rows.Scan(&l.Seq, &l.Prev, &l.Hash); err != nil {
			return err
		}
		if err := fn(l); err != nil {
			return err
		}
	}
	return rows.Err()
}

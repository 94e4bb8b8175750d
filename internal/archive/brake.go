package archive

import (
	"context"

	"github.com/syriamap/syriamap/internal/auth"
	"github.com/syriamap/syriamap/internal/store"
)

// UpdateBrake keeps the sign-in brake's records in the archive (it is an
// auth.Ledger), so that every server on one archive brakes guesses with
// one budget: see auth.Brake and store's UpdateBrake.
func (a *Archive) UpdateBrake(ctx context.Context, u auth.LedgerUpdate, change func(*auth.Records)) error {
	return a.db.UpdateBrake(ctx, u.Keys, u.Names, u.StrikesBefore, u.GuessesUpTo, func(sr *store.BrakeRecords) {
		r := authRecords(sr)
		change(&r)
		clear(sr.Strikes)
		for k, s := range r.Strikes {
			sr.Strikes[k] = store.BrakeStrike{Failures: s.Failures, Until: s.Until}
		}
		sr.Guesses = r.Guesses
	})
}

// ReadBrake reads the sign-in brake's records of keys (see auth.Ledger).
func (a *Archive) ReadBrake(ctx context.Context, keys []string) (auth.Records, error) {
	sr, err := a.db.ReadBrake(ctx, keys, nil)
	if err != nil {
		return auth.Records{}, err
	}
	return authRecords(sr), nil
}

func authRecords(sr *store.BrakeRecords) auth.Records {
	r := auth.Records{Strikes: make(map[string]auth.Strike, len(sr.Strikes)), Guesses: sr.Guesses}
	for k, s := range sr.Strikes {
		r.Strikes[k] = auth.Strike{Failures: s.Failures, Until: s.Until}
	}
	return r
}

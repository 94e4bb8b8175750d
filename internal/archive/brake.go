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
		r := auth.Records{Strikes: make(map[string]auth.Strike, len(sr.Strikes)), Guesses: sr.Guesses}
		for k, s := range sr.Strikes {
			r.Strikes[k] = auth.Strike{Failures: s.Failures, Until: s.Until}
		}
		change(&r)
		clear(sr.Strikes)
		for k, s := range r.Strikes {
			sr.Strikes[k] = store.BrakeStrike{Failures: s.Failures, Until: s.Until}
		}
		sr.Guesses = r.Guesses
	})
}

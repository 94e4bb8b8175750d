package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/syriamap/syriamap/internal/geoparse/lexicon"
)

// The archive files a source that captions credit under names in both
// scripts under one ID (lexicon.AgencyID): every write of a photo's
// agency, an import's or a person's fix, goes through agencyID, and
// migration 31 filed what archives held before.

// agencyID is the ID the archive files agency under.
func agencyID(agency string) string {
	if agency == "" {
		return ""
	}
	return lexicon.AgencyID(agency)
}

// agencyIDs files the agencies of the photos and of people's fixes under
// their IDs (migration 31).
func agencyIDs(ctx context.Context, tx *sql.Tx) error {
	for _, table := range []string{"photos", "fixes"} {
		rows, err := tx.QueryContext(ctx, `SELECT DISTINCT agency FROM `+table+` WHERE agency IS NOT NULL AND agency != ''`)
		if err != nil {
			return err
		}
		var names []string
		for rows.Next() {
			var a string
			if err := rows.Scan(&a); err != nil {
				rows.Close()
				return err
			}
			names = append(names, a)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, a := range names {
			if id := agencyID(a); id != a {
				if _, err := tx.ExecContext(ctx, `UPDATE `+table+` SET agency = ? WHERE agency = ?`, id, a); err != nil {
					return fmt.Errorf("filing the agency %q under %q: %w", a, id, err)
				}
			}
		}
	}
	return nil
}

// agencyIDsOf returns the IDs a filter's agencies name, so that a search
// for any of a source's names selects its photos.
func agencyIDsOf(agencies []string) []string {
	out := make([]string, len(agencies))
	for i, a := range agencies {
		out[i] = agencyID(a)
	}
	return out
}

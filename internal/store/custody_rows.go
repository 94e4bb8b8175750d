package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"

	"github.com/syriamap/syriamap/internal/photo"
)

// rowState is what a photo's custody records say its row must hold: the
// caption's SHA-256 and the date of its last import, the placement of
// its last person's decision, the last harm mark. A field no record sets
// is not checked (records written before the field was kept).
type rowState struct {
	captionSHA, date   string
	hasDate            bool
	review             string // "" when no decision was recorded
	placeID            string
	lon, lat           *float64
	harm               string
	hasHarm, hasReview bool
	// verified is what the last record that set it says (a placement
	// clears it; a second look or an adjudication sets it).
	verified, hasVerified bool
}

// placementActions are the custody actions that set a photo's placement
// by a person's word (or take it back).
var placementActions = map[string]bool{"correct": true, "confirm": true, "undo": true, "unplace": true, "move": true, "adjudicate": true}

// apply folds one custody record into the state.
func (st *rowState) apply(action, detail string) {
	var d struct {
		CaptionSHA *string         `json:"caption_sha256"`
		Date       *string         `json:"date"`
		After      json.RawMessage `json:"after"`
	}
	if json.Unmarshal([]byte(detail), &d) != nil {
		return
	}
	switch {
	case action == "import" || action == "reimport":
		if d.CaptionSHA != nil {
			st.captionSHA = *d.CaptionSHA
		}
		if d.Date != nil {
			st.date, st.hasDate = *d.Date, true
		}
	case action == "fix":
		var a struct {
			Date *string `json:"date"`
		}
		if json.Unmarshal(d.After, &a) == nil {
			st.date, st.hasDate = "", true
			if a.Date != nil {
				st.date = *a.Date
			}
		}
	case action == "harm":
		var a string
		if json.Unmarshal(d.After, &a) == nil {
			st.harm, st.hasHarm = a, true
		}
	case action == "second-look":
		var a struct {
			Verified *bool `json:"verified"`
		}
		if json.Unmarshal(d.After, &a) == nil && a.Verified != nil {
			st.verified, st.hasVerified = *a.Verified, true
		}
	case placementActions[action]:
		var a struct {
			Verified *bool    `json:"verified"`
			PlaceID  string   `json:"place_id"`
			Review   string   `json:"review"`
			Lon      *float64 `json:"lon"`
			Lat      *float64 `json:"lat"`
		}
		if json.Unmarshal(d.After, &a) == nil {
			st.review, st.placeID, st.lon, st.lat, st.hasReview = a.Review, a.PlaceID, a.Lon, a.Lat, true
			// A placement moved with its place keeps its standing;
			// any other clears it, but an adjudication's.
			if action != "move" {
				st.verified, st.hasVerified = a.Verified != nil && *a.Verified, true
			}
		}
	}
}

// storedRow is a photo's row as CheckRows reads it.
type storedRow struct {
	id, caption, review, placeID, harm string
	verified                           bool
	from, to                           sql.NullInt64
	prec                               sql.NullString
	lon, lat                           sql.NullFloat64
}

// differences says how row differs from what its custody records say.
func (st rowState) differences(row storedRow) []string {
	var out []string
	bad := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	if st.captionSHA != "" && sha256Hex(row.caption) != st.captionSHA {
		bad("its caption is not the one its custody records (SHA-256 %s)", st.captionSHA)
	}
	if date := dateOf(row.from, row.to, row.prec); st.hasDate && date != st.date {
		bad("its date is %q, but its custody records %q", date, st.date)
	}
	if st.hasHarm && row.harm != st.harm {
		bad("its harm mark is %q, but its custody records %q", row.harm, st.harm)
	}
	if !st.hasHarm && row.harm != "" {
		bad("it is marked %q, but no custody record marks it", row.harm)
	}
	if row.verified && !st.verified {
		bad("it is marked verified, but its custody records no second editor's agreement since its last placement")
	}
	if !st.hasReview {
		return out
	}
	if got, want := orAutomatic(photo.Review(row.review)), orAutomatic(photo.Review(st.review)); got != want {
		bad("its review is %q, but its custody records %q", got, want)
	} else if want != photo.ReviewAutomatic && (row.placeID != st.placeID || !sameCoord(row.lon, st.lon) || !sameCoord(row.lat, st.lat)) {
		bad("it is placed at %s (%v, %v), but its custody records %s (%v, %v)",
			row.placeID, row.lon.Float64, row.lat.Float64, st.placeID, orNil(st.lon), orNil(st.lat))
	}
	return out
}

// CheckRows checks every photo's row against its custody records: its
// caption against the SHA-256 its last import recorded, its date against
// the last import or fix, its placement against the last person's
// decision (an automatic placement moves with the geocoder and is not
// checked), its harm mark against the last mark. A row edited by hand
// (a caption or date changed, a withheld mark taken off) is named.
func (s *DB) CheckRows(ctx context.Context, progress func(done, total int64)) (checked int64, problems []ChainProblem, err error) {
	var total int64
	if err := s.read.QueryRowContext(ctx, `SELECT count(*) FROM photos`).Scan(&total); err != nil {
		return 0, nil, fmt.Errorf("store: %w", err)
	}
	// Both in id order (the custody index is by photo, then seq): a merge.
	recs, err := s.read.QueryContext(ctx, `SELECT photo_id, action, detail FROM custody WHERE photo_id != '' ORDER BY photo_id, seq`)
	if err != nil {
		return 0, nil, fmt.Errorf("store: %w", err)
	}
	defer recs.Close()
	rows, err := s.read.QueryContext(ctx, `SELECT id, caption, date_from, date_to, date_precision, review, place_id, lon, lat, harm, verified FROM photos ORDER BY id`)
	if err != nil {
		return 0, nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	var recID, action, detail string
	haveRec := recs.Next()
	if haveRec {
		if err := recs.Scan(&recID, &action, &detail); err != nil {
			return 0, nil, err
		}
	}
	for rows.Next() {
		var row storedRow
		if err := rows.Scan(&row.id, &row.caption, &row.from, &row.to, &row.prec, &row.review, &row.placeID, &row.lon, &row.lat, &row.harm, &row.verified); err != nil {
			return checked, problems, err
		}
		var st rowState
		for haveRec && recID <= row.id {
			if recID == row.id {
				st.apply(action, detail)
			}
			if haveRec = recs.Next(); haveRec {
				if err := recs.Scan(&recID, &action, &detail); err != nil {
					return checked, problems, err
				}
			}
		}
		for _, what := range st.differences(row) {
			problems = append(problems, ChainProblem{PhotoID: row.id, What: what + ": the row was changed outside syriamap"})
		}
		checked++
		if progress != nil && checked%4096 == 0 {
			progress(checked, total)
		}
	}
	if err := rows.Err(); err != nil {
		return checked, problems, err
	}
	if progress != nil {
		progress(checked, total)
	}
	return checked, problems, recs.Err()
}

func dateOf(from, to sql.NullInt64, prec sql.NullString) string {
	if !prec.Valid {
		return ""
	}
	return photo.DateFromSpan(int(from.Int64), int(to.Int64), prec.String).String()
}

func sameCoord(got sql.NullFloat64, want *float64) bool {
	if want == nil {
		return !got.Valid
	}
	return got.Valid && math.Abs(got.Float64-*want) < 1e-9
}

func orNil(f *float64) any {
	if f == nil {
		return nil
	}
	return *f
}

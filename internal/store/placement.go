package store

import (
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"

	"github.com/syriamap/syriamap/internal/photo"
)

// The one writer of a photo's placement columns — where the photo is
// shown and why — for the import's INSERT and UPDATE and for Regeocode,
// and the one reading of the geocoder's answer as JSON and its digest.

// placeColumns are the columns a placement fills, in placeArgs' order.
const placeColumns = `place_id, place_name, place_kind, governorate, gov_pcode, country, lon, lat, precision, confidence,
	mention, mention_key, note, alternatives`

// placeSet is placeColumns as an UPDATE's assignments.
const placeSet = `place_id=?, place_name=?, place_kind=?, governorate=?, gov_pcode=?, country=?, lon=?, lat=?, precision=?,
	confidence=?, mention=?, mention_key=?, note=?, alternatives=?`

// placeArgs are the values of placeColumns for g; key folds its mention
// (see DB.MentionKey).
func placeArgs(g photo.Place, key func(string) string) ([]any, error) {
	var lon, lat sql.NullFloat64
	if g.Located {
		lon, lat = sql.NullFloat64{Float64: g.Lon, Valid: true}, sql.NullFloat64{Float64: g.Lat, Valid: true}
	}
	alts, err := json.Marshal(nonNil(g.Alternatives))
	if err != nil {
		return nil, err
	}
	return []any{g.ID, g.Name, g.Kind, g.Governorate, g.GovPCode, g.Country, lon, lat, orNone(g.Precision),
		g.Confidence, g.Mention, key(g.Mention), g.Note, string(alts)}, nil
}

// geocodedJSON is the geocoder's answer as the geocoded column keeps it,
// and its digest, which tells a changed answer from the same one.
func geocodedJSON(g photo.Place) (text, digest string, err error) {
	b, err := json.Marshal(g)
	if err != nil {
		return "", "", err
	}
	sum := sha256.Sum256(b)
	return string(b), hex.EncodeToString(sum[:12]), nil
}

func nonNil(a []photo.Alternative) []photo.Alternative {
	if a == nil {
		return []photo.Alternative{}
	}
	return a
}

func orNone(precision string) string {
	if precision == "" {
		return "none"
	}
	return precision
}

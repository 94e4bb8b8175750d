package archive

import (
	"context"
	"io"
	"math"
	"time"

	"github.com/syriamap/syriamap/internal/evidence/originals"
	"github.com/syriamap/syriamap/internal/secondlook"
)

// What an export (the evidence bag) reads of the archive besides its
// photos and their custody: how a placement was checked, and the
// originals.

// Verification is how photo id's placement was last checked by two
// editors, as a record for an export: both answers, given without
// seeing each other's, how they compared, and a third editor's decision
// when they differed. ok is false when no second look was asked for.
func (a *Archive) Verification(ctx context.Context, id string) (v map[string]any, ok bool, err error) {
	look, ok, err := a.LastLook(ctx, id)
	if err != nil || !ok {
		return nil, ok, err
	}
	return verification(look), true, nil
}

// OriginalsStore is where the archive keeps its originals (a.Originals);
// nil when it keeps none.
func (a *Archive) OriginalsStore() originals.Store { return a.Originals }

// OpenOriginal opens the original of an imported file by its SHA-256:
// originals.ErrNotFound when the archive keeps none of it, or keeps no
// originals at all.
func (a *Archive) OpenOriginal(ctx context.Context, sha256 string) (io.ReadCloser, error) {
	if a.Originals == nil {
		return nil, originals.ErrNotFound
	}
	return a.Originals.Open(ctx, sha256)
}

// verification is how a verified photo's placement was checked: both
// editors' answers, given without seeing each other's, how they compared,
// and a third editor's decision when they differed.
func verification(l secondlook.Round) map[string]any {
	answer := func(a secondlook.Answer) map[string]any {
		m := map[string]any{"by": a.By, "decision": a.Decision, "place_id": a.PlaceID, "place_name": a.PlaceName, "note": a.Note,
			"at": a.At.UTC().Format(time.RFC3339)}
		if a.Located {
			m["lon"], m["lat"] = a.Lon, a.Lat
		}
		return m
	}
	j := l.Judgement
	v := map[string]any{"state": l.State, "first": answer(l.First), "second": answer(l.Second),
		"judgement": map[string]any{"same_place": j.SamePlace, "nested": j.Nested, "same_governorate": j.SameGovernorate,
			"size_km": j.SizeKm, "within_size": j.WithinSize, "agreed": j.Agreed},
		"rule": "the second editor placed the photo without being shown the first editor's answer or the geocoder's reading"}
	if !math.IsNaN(j.DistanceKm) {
		v["judgement"].(map[string]any)["distance_km"] = math.Round(j.DistanceKm*1000) / 1000
	}
	if l.Third.By != "" {
		third := answer(l.Third)
		third["choice"] = l.Third.Choice
		v["decision"] = third
	}
	return v
}

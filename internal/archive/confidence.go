package archive

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geo"

	"github.com/syriamap/syriamap/internal/geoparse/caption"
	"github.com/syriamap/syriamap/internal/geoparse/geocode"
)

// Confidence refitted on the archive's reviews: the shipped model was
// fitted on the captions its rules were written against, and is surer on
// them than on an archive's own (one answer in eleven at 0.8 or more was
// wrong on captions it never saw). Once an archive has MinReviews
// reviewed answers, RefitConfidence fits the model on them, the shipped
// weights as its prior, and the archive's geocoder answers with it.

// rightWithin is how far from the reviewed point a geocoder's answer may
// lie and still count as the reviewer's place (a quarter's point against
// its city's is further).
const rightWithin = 5000 // metres

// RefitConfidence fits the confidence model on the archive's reviewed
// answers — each reviewed caption geocoded again, right when its answer
// is the place the person confirmed or gave — and, when the refit beats
// the archive's model on reviews it was not fitted on (geocode.Refit),
// keeps it and geocodes with it from now on. It returns how many reviewed
// answers there were, whether the refit was kept, and why (or why not).
func (a *Archive) RefitConfidence(ctx context.Context) (reviews int, refitted bool, why string, err error) {
	a.learning.Lock()
	defer a.learning.Unlock()
	reviewed, err := a.db.ReviewedPhotos(ctx)
	if err != nil {
		return 0, false, "", err
	}
	x := a.places.Load()
	var examples []geocode.Example
	for _, r := range reviewed {
		ex := x.geocoder.Explain(caption.Parse(r.Caption))
		p := ex.Result.Place
		if p == nil || ex.Chosen < 0 {
			continue // unplaced: not an answer the confidence speaks for
		}
		right := r.PlaceID != "" && p.ID == r.PlaceID || p.Located && geo.Distance(p.Point, orb.Point{r.Lon, r.Lat}) <= rightWithin
		examples = append(examples, geocode.Example{X: ex.Features, Right: right, Weight: 1})
	}
	if len(examples) < geocode.MinReviews {
		return len(examples), false, fmt.Sprintf("%d reviewed answers, a refit needs %d", len(examples), geocode.MinReviews), nil
	}
	current := geocode.Shipped()
	if a.model != nil {
		current = *a.model
	}
	m, keep, why, err := geocode.Refit(examples, current)
	if err != nil || !keep {
		return len(examples), false, why, err
	}
	data, err := json.Marshal(m)
	if err != nil {
		return len(examples), false, "", err
	}
	if err := a.db.SaveConfidenceModel(ctx, data, len(examples)); err != nil {
		return len(examples), false, "", err
	}
	a.model = &m
	a.places.Store(a.newPlaceIndex(x.gazetteer))
	return len(examples), true, why, nil
}

// loadModel reads the archive's refitted confidence model, if it has one.
func (a *Archive) loadModel(ctx context.Context) error {
	data, err := a.db.ConfidenceModel(ctx)
	if err != nil || data == nil {
		return err
	}
	m, err := geocode.ParseModel(data)
	if err != nil {
		// A model over other features (an older release's) is refitted
		// by the next regeocode; until then the shipped one answers.
		return nil
	}
	a.model = &m
	a.places.Store(a.newPlaceIndex(a.places.Load().gazetteer))
	return nil
}

// Geocoder is the archive's geocoder: over its gazetteer (the bundled
// places, the added ones, the taught spellings), with its confidence
// model.
func (a *Archive) Geocoder() *geocode.Geocoder { return a.places.Load().geocoder }

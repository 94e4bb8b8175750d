package httpapitest

import (
	"context"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/ingest"
	"github.com/syriamap/syriamap/internal/photo"
)

// Unchanged fails the test if the photo id of a has any event or is no
// longer the geocoder's; why names what should have left it alone.
func Unchanged(t testing.TB, a *archive.Archive, id, why string) {
	t.Helper()
	p, err := a.Photo(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	h, _ := a.History(context.Background(), id)
	if len(h) != 0 || p.Review != photo.ReviewAutomatic {
		t.Errorf("%s changed the photo: %d events, review %s", why, len(h), p.Review)
	}
}

// UnchangedPlace fails the test unless the photo id of a is unchecked,
// at the geocoder's place.
func UnchangedPlace(t testing.TB, a *archive.Archive, id string) {
	t.Helper()
	p, err := a.Photo(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if p.Review != photo.ReviewAutomatic || p.Place.ID != p.Geocoded.ID || p.Correction != nil {
		t.Errorf("photo %s: review %s, at %s (the geocoder's %s)", id, p.Review, p.Place.ID, p.Geocoded.ID)
	}
}

// Regeocoder places every photo again with a geocoder of the caller's
// own: the storage's Regeocode, on the archive's file (a test's raw
// store), which the harness does not import.
type Regeocoder interface {
	Regeocode(ctx context.Context, geocode func(caption string) photo.Place, progress func(done, total int)) (changed, moved int, err error)
}

// SplitKafranbel makes the samples' Kafranbel group split: the photo of
// children is read, from the same word, as Aleppo (as a geocoder may
// read one spelling two ways), by db over a's file; it returns that
// photo's id.
func SplitKafranbel(t testing.TB, a *archive.Archive, db Regeocoder) string {
	t.Helper()
	ctx := context.Background()
	aleppo := a.Gazetteer().ByID("gn:170063")
	if aleppo == nil || !aleppo.Located {
		t.Fatal("no Aleppo in the gazetteer")
	}
	_, _, err := db.Regeocode(ctx, func(caption string) photo.Place {
		pl := a.Build(ingest.Record{Caption: caption}).Geocoded
		if strings.HasPrefix(caption, "Children play in Kafranbel") {
			pl.ID, pl.Name, pl.Kind = aleppo.ID, aleppo.Name, string(aleppo.Kind)
			pl.Lon, pl.Lat = aleppo.Point.Lon(), aleppo.Point.Lat()
		}
		return pl
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ids, err := a.ReviewIDs(ctx, photo.Filter{PlaceIDs: []string{aleppo.ID}}, "Kafranbel")
	if err != nil || len(ids) != 1 {
		t.Fatalf("the Kafranbel photo read as Aleppo: %v %v", ids, err)
	}
	return ids[0]
}

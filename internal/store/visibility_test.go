package store

import (
	"context"
	"testing"

	"github.com/syriamap/syriamap/internal/photo"
)

// TestEveryReadIsTheViewers (issue 55, 1): with one photo of Damascus
// withheld, every read of photos the store offers counts it for an
// editor's context and leaves it out for the public's, the context with
// no viewer included. A read that built its SQL without where or visible
// (the rule written again, or forgotten) fails here.
func TestEveryReadIsTheViewers(t *testing.T) {
	db := open(t)
	importFixture(t, db)
	hid := fixture[3]   // A market in Damascus, 2016-08-01, Reuters
	first := fixture[5] // A rebel in Bishqatin, unplaced, the archive's first day
	for _, p := range []*photo.Photo{hid, first} {
		if _, err := db.SetHarm(context.Background(), p.ID, photo.HarmWithheld, "rana", "a test"); err != nil {
			t.Fatal(err)
		}
	}
	damascus := photo.Filter{PlaceIDs: []string{"gn:2"}}
	sum := func(cs []photo.Count) (n int) {
		for _, c := range cs {
			n += c.Count
		}
		return n
	}
	reads := []struct {
		name string
		// count is how many photos the read finds.
		count func(ctx context.Context) (int, error)
		// public and editor are the counts each viewer is owed.
		public, editor int
	}{
		{"Photos", func(ctx context.Context) (int, error) {
			ps, err := db.Photos(ctx, damascus)
			return len(ps), err
		}, 1, 2},
		{"CountPhotos", func(ctx context.Context) (int, error) { return db.CountPhotos(ctx, damascus) }, 1, 2},
		{"Count", db.Count, len(fixture) - 2, len(fixture)},
		{"Photo", func(ctx context.Context) (int, error) {
			_, err := db.Photo(ctx, hid.ID)
			if photo.ErrorCode(err) == photo.ENotFound {
				return 0, nil
			}
			return 1, err
		}, 0, 1},
		{"Facets", func(ctx context.Context) (int, error) {
			fc, err := db.Facets(ctx, photo.Filter{}, 100, photo.FacetAgency)
			return sum(fc.Agencies), err
		}, len(fixture) - 2, len(fixture)},
		{"Histogram", func(ctx context.Context) (n int, err error) {
			ms, err := db.Histogram(ctx, photo.Filter{})
			for _, m := range ms {
				n += m.Count
			}
			return n, err
		}, 4, 6},
		{"Clusters", func(ctx context.Context) (n int, err error) {
			cs, err := db.Clusters(ctx, damascus, 1)
			for _, c := range cs {
				n += c.Count
			}
			return n, err
		}, 1, 2},
		{"EachFeature", func(ctx context.Context) (n int, err error) {
			err = db.EachFeature(ctx, damascus, func(*photo.Feature) error { n++; return nil })
			return n, err
		}, 1, 2},
		{"SelectIDs", func(ctx context.Context) (int, error) {
			ids, err := db.SelectIDs(ctx, damascus)
			return len(ids), err
		}, 1, 2},
		{"EachFeatureBulk", func(ctx context.Context) (n int, err error) {
			err = db.EachFeatureBulk(ctx, 0, 1<<40, func(*photo.Feature) error { n++; return nil })
			return n, err
		}, len(fixture) - 2, len(fixture)},
		{"PlacesWithPhotos", func(ctx context.Context) (n int, err error) {
			pcs, err := db.PlacesWithPhotos(ctx, damascus)
			for _, pc := range pcs {
				n += pc.Count
			}
			return n, err
		}, 1, 2},
		{"ReviewGroups", func(ctx context.Context) (n int, err error) {
			gs, err := db.ReviewGroups(ctx, photo.Filter{}, 100)
			for _, g := range gs {
				n += g.Photos
			}
			return n, err
		}, len(fixture) - 2, len(fixture)},
		{"Extent", func(ctx context.Context) (int, error) {
			// The rebel in Bishqatin is the archive's first day: it
			// starts the editor's extent, not the public's.
			e, err := db.Extent(ctx)
			if e.First == first.Date {
				return 1, err
			}
			return 0, err
		}, 0, 1},
	}
	for _, r := range reads {
		for _, v := range []struct {
			who  string
			ctx  context.Context
			want int
		}{
			{"the public", context.Background(), r.public},
			{"the public, said so", photo.WithViewer(context.Background(), photo.Public), r.public},
			{"an editor", photo.AsEditor(context.Background(), "rana"), r.editor},
		} {
			got, err := r.count(v.ctx)
			if err != nil {
				t.Errorf("%s for %s: %v", r.name, v.who, err)
				continue
			}
			if got != v.want {
				t.Errorf("%s for %s finds %d photos, want %d", r.name, v.who, got, v.want)
			}
		}
	}
	if _, err := db.MarkedPhotos(context.Background(), 10); photo.ErrorCode(err) != photo.EUnauthorized {
		t.Errorf("MarkedPhotos for the public: %v, want an EUnauthorized error", err)
	}
	if marked, err := db.MarkedPhotos(photo.AsEditor(context.Background(), "rana"), 10); err != nil || len(marked) != 2 {
		t.Errorf("MarkedPhotos for an editor: %d, %v; want the two withheld photos", len(marked), err)
	}
}

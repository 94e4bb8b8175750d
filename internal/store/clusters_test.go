package store

import (
	"context"
	"sort"
	"testing"

	"github.com/paulmach/orb"

	"github.com/syriamap/syriamap/internal/photo"
)

func TestClusters(t *testing.T) {
	db := open(t)
	importFixture(t, db)
	ctx := context.Background()
	// The fixture: three photos at Aleppo, two at Damascus, one at Idlib,
	// one unplaced.
	for _, c := range []struct {
		name   string
		f      photo.Filter
		cell   float64
		counts []int
	}{
		{"one cell holds Syria", photo.Filter{}, 10, []int{6}},
		{"cities apart", photo.Filter{}, 0.5, []int{1, 2, 3}},
		{"a window", photo.Filter{From: date("2016-07"), To: date("2016-07")}, 0.5, []int{3}},
		{"a box", photo.Filter{BBox: bound(36, 33, 37, 34)}, 0.5, []int{2}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cs, err := db.Clusters(ctx, c.f, c.cell)
			if err != nil {
				t.Fatal(err)
			}
			var counts []int
			for _, cl := range cs {
				counts = append(counts, cl.Count)
				if (cl.Count == 1) != (cl.Single != nil) {
					t.Errorf("a cell of %d has single %v", cl.Count, cl.Single)
				}
				if cl.Single != nil && (cl.Single.ID != photo.ID("A shop in Idlib.") || cl.Lon != 36.63) {
					t.Errorf("the single photo is %+v at %v", cl.Single, cl.Lon)
				}
			}
			sort.Ints(counts)
			if len(counts) != len(c.counts) {
				t.Fatalf("counts %v, want %v", counts, c.counts)
			}
			for i := range counts {
				if counts[i] != c.counts[i] {
					t.Errorf("counts %v, want %v", counts, c.counts)
				}
			}
		})
	}
	if _, err := db.Clusters(ctx, photo.Filter{}, 0); err == nil {
		t.Error("a cell of 0 degrees is accepted")
	}
}

func bound(minLon, minLat, maxLon, maxLat float64) *orb.Bound {
	return &orb.Bound{Min: orb.Point{minLon, minLat}, Max: orb.Point{maxLon, maxLat}}
}

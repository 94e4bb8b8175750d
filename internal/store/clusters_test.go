package store

import (
	"context"
	"fmt"
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

// TestClusterMeansRoundHalvesAway: a cell's mean is of its points in
// whole millionths rounded as photo.Micro rounds them (halves away from
// zero), on either engine (PostgreSQL's round of a double takes halves to
// even), and the cells come west to east.
func TestClusterMeansRoundHalvesAway(t *testing.T) {
	db := open(t)
	ctx := context.Background()
	pts := [][2]float64{{36.0000025, 35.0000015}, {36.0000035, 35.0000035}, {38.5000005, 35.5000005}, {38.5000015, 35.5000025}}
	var recs []Record
	for i, pt := range pts {
		p := mk(fmt.Sprintf("Rescuers at work, %d.", i), "2019-08-22", "", "", fmt.Sprintf("gn:%d", 10+i), "Place", "Idlib", pt[0], pt[1], 0.9)
		recs = append(recs, Record{Photo: p, Line: i + 1})
	}
	if _, err := db.ImportFile(ctx, "f.csv", Records(recs), nil); err != nil {
		t.Fatal(err)
	}
	cs, err := db.Clusters(ctx, photo.Filter{}, 1)
	if err != nil || len(cs) != 2 {
		t.Fatalf("clusters %+v, %v; want two cells", cs, err)
	}
	for i, c := range cs {
		a, b := pts[2*i], pts[2*i+1]
		lon := photo.MeanOfMicro(float64(photo.Micro(a[0])+photo.Micro(b[0])), 2)
		lat := photo.MeanOfMicro(float64(photo.Micro(a[1])+photo.Micro(b[1])), 2)
		if c.Count != 2 || c.Lon != lon || c.Lat != lat {
			t.Errorf("cell %d: %d photos at %v, %v; want 2 at %v, %v", i, c.Count, c.Lon, c.Lat, lon, lat)
		}
	}
}

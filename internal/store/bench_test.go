package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"testing"
	"time"

	"github.com/paulmach/orb"

	"github.com/syriamap/syriamap/internal/photo"
)

// benchDB opens the archive named by SYRIAMAP_BENCH_DB (for example one
// made by `syriamap gen --n 1000000 | syriamap import`), or skips.
func benchDB(b *testing.B) *DB {
	path := os.Getenv("SYRIAMAP_BENCH_DB")
	if path == "" {
		b.Skip("set SYRIAMAP_BENCH_DB to an archive to measure (`make bench` leaves archives of 10k, 100k and 1M photos in /tmp/syriamap-bench)")
	}
	db, err := Open(context.Background(), path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db
}

// windows are one-month windows from 2012 to 2017 with a box around one
// of Syria's larger cities.
func windows(n int) []photo.Filter {
	boxes := []orb.Bound{
		{Min: orb.Point{36.9, 36.0}, Max: orb.Point{37.4, 36.4}}, // Aleppo
		{Min: orb.Point{36.1, 33.3}, Max: orb.Point{36.6, 33.7}}, // Damascus and the Ghouta
		{Min: orb.Point{36.5, 34.6}, Max: orb.Point{36.9, 34.9}}, // Homs
		{Min: orb.Point{36.3, 35.6}, Max: orb.Point{36.9, 36.1}}, // Idlib
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var out []photo.Filter
	for i := 0; i < n; i++ {
		y, m := 2012+rng.IntN(6), 1+rng.IntN(12)
		box := boxes[rng.IntN(len(boxes))]
		d := photo.Date{Year: y, Month: m, Precision: "month"}
		out = append(out, photo.Filter{From: d, To: d, BBox: &box})
	}
	return out
}

// BenchmarkWindowQuery lists the photos of a one-month window in a box, as
// the map asks for them, and reports the median and 99th percentile.
func BenchmarkWindowQuery(b *testing.B) {
	db := benchDB(b)
	ctx := context.Background()
	fs := windows(200)
	var took []time.Duration
	rows := 0
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		ps, err := db.Photos(ctx, fs[i%len(fs)])
		if err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(start))
		rows += len(ps)
	}
	report(b, took)
	b.ReportMetric(float64(rows)/float64(len(took)), "photos/query")
}

// BenchmarkHistogram counts every photo by month.
func BenchmarkHistogram(b *testing.B) {
	db := benchDB(b)
	ctx := context.Background()
	var took []time.Duration
	for b.Loop() {
		start := time.Now()
		if _, err := db.Histogram(ctx, photo.Filter{}); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(start))
	}
	report(b, took)
}

func report(b *testing.B, took []time.Duration) {
	sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
	pct := func(p float64) float64 { return float64(took[int(p*float64(len(took)-1))].Microseconds()) / 1000 }
	b.ReportMetric(pct(0.5), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
}

// BenchmarkEachFeature walks 100,000 photos as a full GeoJSON download
// would read them.
func BenchmarkEachFeature(b *testing.B) {
	db := benchDB(b)
	ctx := context.Background()
	for b.Loop() {
		n := 0
		if err := db.EachFeature(ctx, photo.Filter{Limit: 100000}, func(*photo.Feature) error { n++; return nil }); err != nil {
			b.Fatal(err)
		}
		if n != 100000 {
			b.Fatalf("%d features", n)
		}
	}
}

// BenchmarkReviewGroups lists the review queue's groups under each kind
// of filter the queue takes (issue 39: under a second at a million
// photos, whatever the filter), and a group's photos in review order.
func BenchmarkReviewGroups(b *testing.B) {
	db := benchDB(b)
	ctx := context.Background()
	year := func(y int) photo.Date { return photo.Date{Year: y, Precision: "year"} }
	aleppo := orb.Bound{Min: orb.Point{36.9, 36.0}, Max: orb.Point{37.4, 36.4}}
	for _, bc := range []struct {
		name string
		f    photo.Filter
	}{
		{"all", photo.Filter{}},
		{"2012-2017", photo.Filter{From: year(2012), To: year(2017)}},
		{"a month", photo.Filter{From: photo.Date{Year: 2014, Month: 3, Precision: "month"}, To: photo.Date{Year: 2014, Month: 3, Precision: "month"}}},
		{"agency", photo.Filter{Agencies: []string{"Reuters"}}},
		{"photographer", photo.Filter{Photographers: []string{"Khalil Ashawi"}}},
		{"governorate", photo.Filter{Governorates: []string{"SY02"}}},
		{"box", photo.Filter{BBox: &aleppo}},
		{"disagrees", photo.Filter{Agreements: []string{"disagrees"}}},
		{"confidence", photo.Filter{MinConfidence: 0.5}},
		{"search", photo.Filter{Query: "children"}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				groups, err := db.ReviewGroups(ctx, bc.f, 500)
				if err != nil {
					b.Fatal(err)
				}
				if len(groups) > 0 {
					if _, err := db.ReviewIDs(ctx, bc.f, groups[0].Mention); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// BenchmarkBlindReads measures what the rule of a placement waiting for
// its second look costs the reads it touches, over 100,000 photos of
// which 20 wait: as the archive reads (no condition), as the public (the
// withheld and the waiting left out) and as another editor (the waiting
// alone). go test -run '^$' -bench BlindReads ./internal/store
func BenchmarkBlindReads(b *testing.B) {
	db := open(b)
	recs := make([]Record, 0, 100_000)
	for i := range 100_000 {
		p := mk(fmt.Sprintf("Photo %d in Aleppo.", i), "2016-07-12", "AFP", "X", fmt.Sprintf("gn:%d", i%500), "P", "Aleppo",
			36+float64(i%1000)/500, 33+float64(i/1000)/50, 0.9)
		recs = append(recs, Record{Photo: p, Line: i + 1})
	}
	ctx := context.Background()
	if _, err := db.ImportFile(ctx, "big.txt", Records(recs), nil); err != nil {
		b.Fatal(err)
	}
	if err := db.SetTwoPerson(ctx, true, "lead"); err != nil {
		b.Fatal(err)
	}
	ps, err := db.Photos(ctx, photo.Filter{Limit: 20})
	if err != nil {
		b.Fatal(err)
	}
	for _, p := range ps {
		pl := photo.Place{ID: "gn:9999", Name: "Z", Lon: 38, Lat: 35, Located: true}
		if _, err := db.Apply(ctx, []string{p.ID}, photo.Change{Author: "rana", Place: &pl}); err != nil {
			b.Fatal(err)
		}
	}
	box := orb.Bound{Min: orb.Point{36.5, 33.5}, Max: orb.Point{37.5, 34.5}}
	reads := []struct {
		name string
		fn   func(context.Context) error
	}{
		{"count-bbox", func(c context.Context) error { _, err := db.CountPhotos(c, photo.Filter{BBox: &box}); return err }},
		{"facets", func(c context.Context) error { _, err := db.Facets(c, photo.Filter{}, 50); return err }},
		{"places", func(c context.Context) error { _, err := db.PlacesWithPhotos(c, photo.Filter{}); return err }},
		{"features-bbox", func(c context.Context) error {
			return db.EachFeature(c, photo.Filter{BBox: &box}, func(*photo.Feature) error { return nil })
		}},
	}
	for _, v := range []struct {
		name string
		ctx  context.Context
	}{{"archive", photo.WithViewer(ctx, photo.Viewer{Editor: "syriamap", Archive: true})}, {"public", ctx}, {"editor", photo.AsEditor(ctx, "omar")}} {
		for _, r := range reads {
			b.Run(r.name+"/"+v.name, func(b *testing.B) {
				for b.Loop() {
					if err := r.fn(v.ctx); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

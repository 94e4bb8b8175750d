package httpapi

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/maptile"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/store"
)

// benchServer serves the archive named by SYRIAMAP_BENCH_DB (`make bench`
// leaves archives of 10k, 100k and 1M photos in /tmp/syriamap-bench), or
// skips. These benchmarks run in-process, for profiling; `make bench`
// measures through a real server.
func benchServer(b *testing.B) *httptest.Server {
	path := os.Getenv("SYRIAMAP_BENCH_DB")
	if path == "" {
		b.Skip("set SYRIAMAP_BENCH_DB to an archive to measure")
	}
	db, err := store.Open(context.Background(), path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	g, err := bundled()
	if err != nil {
		b.Fatal(err)
	}
	// The response cache would answer most of the benchmarks' repeated
	// windows: they measure the work it spares (`make bench PEER=1`
	// measures it).
	s, err := New(archive.New(db, g), Options{CacheBytes: -1})
	if err != nil {
		b.Fatal(err)
	}
	// Measured as the server runs once started: from the memory index.
	waitForIndex(b, s)
	ts := httptest.NewServer(s.Handler())
	b.Cleanup(ts.Close)
	return ts
}

func fetch(b *testing.B, client *http.Client, url string, gzip bool) int64 {
	req, _ := http.NewRequest("GET", url, nil)
	if gzip {
		req.Header.Set("Accept-Encoding", "gzip")
	}
	resp, err := client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	n, err := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 {
		b.Fatalf("%s: %d %v", url, resp.StatusCode, err)
	}
	return n
}

// BenchmarkWindowGeoJSON asks the server for a month of photos in a city's
// box, as the map does, and reports the median and 99th percentile.
func BenchmarkWindowGeoJSON(b *testing.B) {
	ts := benchServer(b)
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	boxes := []string{"36.9,36.0,37.4,36.4", "36.1,33.3,36.6,33.7", "36.5,34.6,36.9,34.9", "36.3,35.6,36.9,36.1"}
	rng := rand.New(rand.NewPCG(1, 2))
	var took []time.Duration
	var bytes int64
	for b.Loop() {
		m := fmt.Sprintf("%d-%02d", 2012+rng.IntN(6), 1+rng.IntN(12))
		url := ts.URL + "/api/photos.geojson?from=" + m + "&to=" + m + "&bbox=" + boxes[rng.IntN(len(boxes))]
		start := time.Now()
		bytes += fetch(b, client, url, false)
		took = append(took, time.Since(start))
	}
	report(b, took)
	b.ReportMetric(float64(bytes)/float64(len(took)), "bytes/op")
}

// BenchmarkFullGeoJSON downloads 100,000 features, plain and gzipped.
func BenchmarkFullGeoJSON(b *testing.B) {
	ts := benchServer(b)
	for _, gz := range []bool{false, true} {
		b.Run(map[bool]string{false: "plain", true: "gzip"}[gz], func(b *testing.B) {
			client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
			var took []time.Duration
			var bytes int64
			for b.Loop() {
				start := time.Now()
				bytes = fetch(b, client, ts.URL+"/api/photos.geojson?limit=100000", gz)
				took = append(took, time.Since(start))
			}
			report(b, took)
			b.ReportMetric(float64(bytes), "bytes/op")
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			b.ReportMetric(float64(ms.HeapSys)/(1<<20), "heap-MB")
		})
	}
}

func report(b *testing.B, took []time.Duration) {
	sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
	pct := func(p float64) float64 { return float64(took[int(p*float64(len(took)-1))].Microseconds()) / 1000 }
	b.ReportMetric(pct(0.5), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
}

// BenchmarkMapView compares the two ways a map can draw a large archive:
// one /api/clusters request for the view (what the explorer does above
// its in-page limit) against the vector tiles that cover the same view,
// fetched six at a time as a browser does. A view is 1440×900 pixels over
// Syria at zoom 7 or a city at zoom 11, for a random year or month.
func BenchmarkMapView(b *testing.B) {
	ts := benchServer(b)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 8}}
	views := []struct {
		name     string
		zoom     int
		lon, lat float64
	}{{"country-z7", 7, 38.5, 35}, {"aleppo-z11", 11, 37.16, 36.2}}
	for _, v := range views {
		for _, window := range []string{"year", "month"} {
			rng := rand.New(rand.NewPCG(1, 2))
			period := func() string {
				y := 2012 + rng.IntN(6)
				if window == "year" {
					return fmt.Sprintf("from=%d&to=%d", y, y)
				}
				m := fmt.Sprintf("%d-%02d", y, 1+rng.IntN(12))
				return "from=" + m + "&to=" + m
			}
			// The view's box and its tiles.
			c := maptile.At(orb.Point{v.lon, v.lat}, maptile.Zoom(v.zoom))
			frac := maptile.Fraction(orb.Point{v.lon, v.lat}, maptile.Zoom(v.zoom))
			x0, x1 := int(frac[0]-1440.0/256/2), int(frac[0]+1440.0/256/2)
			y0, y1 := int(frac[1]-900.0/256/2), int(frac[1]+900.0/256/2)
			nw := maptile.New(uint32(x0), uint32(y0), c.Z).Bound()
			se := maptile.New(uint32(x1), uint32(y1), c.Z).Bound()
			bbox := fmt.Sprintf("%f,%f,%f,%f", nw.Min[0], se.Min[1], se.Max[0], nw.Max[1])
			b.Run(v.name+"-"+window+"/clusters", func(b *testing.B) {
				var took []time.Duration
				for b.Loop() {
					start := time.Now()
					fetch(b, client, fmt.Sprintf("%s/api/clusters?zoom=%d&bbox=%s&%s", ts.URL, v.zoom, bbox, period()), false)
					took = append(took, time.Since(start))
				}
				report(b, took)
			})
			b.Run(v.name+"-"+window+"/tiles", func(b *testing.B) {
				var took []time.Duration
				var bytes int64
				for b.Loop() {
					p := period()
					urls := make(chan string)
					var wg sync.WaitGroup
					var mu sync.Mutex
					start := time.Now()
					for range 6 {
						wg.Add(1)
						go func() {
							defer wg.Done()
							for u := range urls {
								n := fetch(b, client, u, false)
								mu.Lock()
								bytes += n
								mu.Unlock()
							}
						}()
					}
					for x := x0; x <= x1; x++ {
						for y := y0; y <= y1; y++ {
							urls <- fmt.Sprintf("%s/tiles/photos/%d/%d/%d.mvt?%s", ts.URL, v.zoom, x, y, p)
						}
					}
					close(urls)
					wg.Wait()
					took = append(took, time.Since(start))
				}
				report(b, took)
				b.ReportMetric(float64((x1-x0+1)*(y1-y0+1)), "tiles/view")
			})
		}
	}
}

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
	"testing"
	"time"

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
	s, err := New(archive.New(db, g), Options{})
	if err != nil {
		b.Fatal(err)
	}
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

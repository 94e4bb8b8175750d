package httpapi

import (
	"bufio"
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/syriamap/syriamap/internal/http/httpapi/httpapitest"

	"github.com/syriamap/syriamap/internal/http/lane"
)

// TestSlowClientsAndSearchesDoNotStall: while 8 clients hold downloads
// open without reading them and 8 others send the costliest searches the
// server takes, the health check and a map window still answer. (The
// figures — p99 under 100 and 200 ms — are the bench's to measure:
// syriamap-bench --stall; here the bound is generous, for shared machines.)
func TestSlowClientsAndSearchesDoNotStall(t *testing.T) {
	if testing.Short() {
		t.Skip("imports 80,000 photos")
	}
	// Enough photos that their gzipped GeoJSON (about 130 bytes a photo)
	// is more than the kernel's socket buffers hold.
	a := generatedArchive(t, 80_000, 1)
	s, err := New(a, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.stream.WriteIdle = 3 * time.Second
	var searches atomic.Int32 // searches the server has begun to answer
	h := s.Handler()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Has("q") {
			searches.Add(1)
		}
		h.ServeHTTP(w, r)
	}))
	defer ts.Close()
	host := strings.TrimPrefix(ts.URL, "http://")

	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }()
	const bound = 10 * time.Second // generous: the point is that they answer at all
	for range 8 {
		c, err := net.Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.(*net.TCPConn).SetReadBuffer(4096)
		c.SetReadDeadline(time.Now().Add(bound))
		fmt.Fprintf(c, "GET /api/photos.geojson?from=2012 HTTP/1.1\r\nHost: %s\r\n\r\n", host)
		if status, err := bufio.NewReader(c).ReadString('\n'); err != nil || !strings.Contains(status, "200") {
			t.Fatalf("a slow reader's download did not start: %q %v", status, err)
		}
		// and is never read further
	}
	client := &http.Client{Timeout: 30 * time.Second}
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := i; ctx.Err() == nil; n++ {
				q := []string{"al* OR sy* OR fi* OR re*", "syria OR fighters OR ho* OR ci*"}[n%2]
				path := []string{"/api/photos.geojson", "/api/facets", "/api/timeline"}[n%3]
				req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+path+"?q="+urlQuery(q), nil)
				if resp, err := client.Do(req); err == nil {
					drain(resp)
				}
			}
		}()
	}
	// The searches have taken hold: each of the 8 has been let in.
	httpapitest.Eventually(t, func() bool { return searches.Load() >= 8 })
	for i := range 20 {
		for _, path := range []string{"/healthz", fmt.Sprintf("/api/photos.geojson?from=2016-%02d&to=2016-%02d&bbox=36.9,36.0,37.4,36.4", i%12+1, i%12+1)} {
			start := time.Now()
			resp, err := (&http.Client{Timeout: bound}).Get(ts.URL + path)
			if err != nil {
				t.Fatalf("%s did not answer within %s while slow readers and searches ran: %v", path, bound, err)
			}
			drain(resp)
			if resp.StatusCode != 200 {
				t.Fatalf("%s: %s after %s", path, resp.Status, time.Since(start))
			}
		}
	}
	// A download whose client reads nothing for writeIdle is cut off, and
	// what it held is let go (the kernel may still try to deliver what it
	// had buffered).
	cancel()
	wg.Wait()
	httpapitest.Eventually(t, func() bool { return s.stream.InFlight() == 0 })
	if n := s.stream.InFlight(); n != 0 {
		t.Errorf("%d downloads still in flight after their clients stopped reading", n)
	}
}

func drain(resp *http.Response) {
	buf := make([]byte, 32<<10)
	for {
		if _, err := resp.Body.Read(buf); err != nil {
			break
		}
	}
	resp.Body.Close()
}

// A client that asks for a large gzipped window from the memory index and
// never reads it is cut off after the write idle limit, not the server's
// five-minute write timeout, and the log says the request was aborted.
func TestStalledGzipClientIsCutOff(t *testing.T) {
	if testing.Short() {
		t.Skip("imports 80,000 photos")
	}
	// Enough photos that their gzipped GeoJSON (about 130 bytes a photo)
	// is more than the kernel's socket buffers hold.
	a := generatedArchive(t, 80_000, 1)
	var logs syncBuffer
	s, err := New(a, Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	s.stream.WriteIdle = 300 * time.Millisecond
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	waitForIndex(t, s)
	host := strings.TrimPrefix(ts.URL, "http://")
	c, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.(*net.TCPConn).SetReadBuffer(4096)
	fmt.Fprintf(c, "GET /api/photos.geojson?from=2012&to=2017 HTTP/1.1\r\nHost: %s\r\nAccept-Encoding: gzip\r\n\r\n", host)
	httpapitest.Eventually(t, func() bool { return strings.Contains(logs.String(), "aborted=true") })
	if !strings.Contains(logs.String(), "aborted=true") {
		t.Fatalf("the stalled client was not cut off in 20 s; log:\n%s", logs.String())
	}
	if !strings.Contains(logs.String(), "path=/api/photos.geojson") {
		t.Errorf("log: %s", logs.String())
	}
}

// syncBuffer is a bytes.Buffer safe for a logger and a test at once.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// The review pages rank every photo their filter selects: they run in a
// lane of their own, so that eight of them cannot crowd out the map's
// windows, and so that the readers' searches and downloads never queue
// the editors' work behind them (issue 52, part 5: review pages took up
// to 8.7 s under a mix of searches and downloads). With their lane full,
// they wait (here, with no room to wait, they are refused).
func TestReviewPagesRunInTheirLane(t *testing.T) {
	e := newEditorServer(t, Options{})
	c, _ := e.signIn(t)
	kafranbel := e.photoID(t, "?place=gn:168661")
	pages := []string{"/review?from=2012&to=2017", "/review/photos/" + kafranbel + "?q=Kafranbel"}
	e.s.lane = lane.New(1, 0)
	leave, _ := e.s.lane.Wait(context.Background()) // the readers' one slot taken
	for _, u := range pages {
		if resp, _ := do(t, c, "GET", e.ts.URL+u, ""); resp.StatusCode != http.StatusOK {
			t.Errorf("%s with the readers' lane full: %s, want 200", u, resp.Status)
		}
	}
	leave()
	e.s.reviewLane = lane.New(1, 0)
	leave, _ = e.s.reviewLane.Wait(context.Background()) // the review's one slot taken
	defer leave()
	for _, u := range pages {
		if resp, _ := do(t, c, "GET", e.ts.URL+u, ""); resp.StatusCode != http.StatusServiceUnavailable {
			t.Errorf("%s with the review lane full: %s, want 503", u, resp.Status)
		}
	}
}

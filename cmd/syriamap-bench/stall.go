package main

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The stall scenario: while slow clients hold downloads open and heavy
// full-text searches run, do the health check and the map's window query
// still answer quickly? (issue 10: /healthz p99 < 100 ms, a window p99 <
// 200 ms with 8 slow readers and 8 heavy searches.)

// heavySearches are the most expensive searches the server accepts: the
// most prefix terms it allows, short prefixes that match most captions,
// and common words. A server that refuses one (400) is counted apart.
var heavySearches = []string{
	"al* OR sy* OR fi* OR re*",
	"syria OR syrian OR rebel OR fighters OR damascus OR aleppo OR ho* OR ci*",
	"people OR men OR women OR children OR in* OR ne* OR ar* OR st*",
}

// stallResult is what one stall run measured.
type stallResult struct {
	healthzMS, windowMS   []float64
	probeErrors           int64 // probes that failed or timed out
	searches, refused     int64 // heavy searches answered, and refused with 400
	busy                  int64 // heavy searches answered 503 (the server shedding load)
	slowReaders, readersN int
}

// runStall keeps slow slow readers and heavy heavy searchers busy against
// base for d, probing /healthz and a one-month city window in turn, and
// returns the probes' latencies. search, if not "", replaces the heavy
// searches (to reproduce a report).
func runStall(ctx context.Context, base string, d time.Duration, slow, heavy int, search string) (stallResult, error) {
	if search != "" {
		return runStallWith(ctx, base, d, slow, heavy, []string{search}, "/api/photos.geojson?from=2012")
	}
	return runStallWith(ctx, base, d, slow, heavy, heavySearches, "/api/photos.geojson?from=2012")
}

// runStallPaths is runStall with the slow readers asking for download.
func runStallPaths(ctx context.Context, base string, d time.Duration, slow, heavy int, download string) (stallResult, error) {
	return runStallWith(ctx, base, d, slow, heavy, heavySearches, download)
}

func runStallWith(ctx context.Context, base string, d time.Duration, slow, heavy int, searches []string, download string) (stallResult, error) {
	u, err := url.Parse(base)
	if err != nil {
		return stallResult{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var res stallResult
	var wg sync.WaitGroup
	var opened atomic.Int64
	for range slow {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if slowRead(ctx, u.Host, download) {
				opened.Add(1)
			}
		}()
	}
	time.Sleep(500 * time.Millisecond) // let the readers take hold
	hc := &http.Client{Timeout: 60 * time.Second}
	var answered, refused, busy atomic.Int64
	for i := range heavy {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := i; ctx.Err() == nil; n++ {
				path := "/api/photos.geojson?q=" + url.QueryEscape(searches[n%len(searches)])
				if n%2 == 1 {
					path = "/api/facets?q=" + url.QueryEscape(searches[n%len(searches)])
				}
				req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+path, nil)
				resp, err := hc.Do(req)
				if err != nil {
					continue
				}
				drain(resp)
				switch resp.StatusCode {
				case http.StatusBadRequest:
					refused.Add(1)
				case http.StatusServiceUnavailable:
					busy.Add(1)
					time.Sleep(200 * time.Millisecond) // as Retry-After asks, roughly
				default:
					answered.Add(1)
				}
			}
		}()
	}
	// The probes: what a load balancer and a map user ask meanwhile.
	probe := &http.Client{Timeout: 30 * time.Second}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; ctx.Err() == nil; i++ {
		path := "/healthz"
		if i%2 == 1 {
			m := fmt.Sprintf("%d-%02d", 2012+rng.IntN(6), 1+rng.IntN(12))
			path = "/api/photos.geojson?from=" + m + "&to=" + m + "&bbox=" + cityBoxes[rng.IntN(len(cityBoxes))]
		}
		start := time.Now()
		resp, err := probe.Get(base + path)
		took := ms(time.Since(start))
		if err == nil {
			drain(resp)
			took = ms(time.Since(start))
			if resp.StatusCode != http.StatusOK {
				err = fmt.Errorf("%s", resp.Status)
			}
		}
		if err != nil {
			res.probeErrors++
			took = max(took, 30_000) // a failed probe counts as the slowest
		}
		if ctx.Err() != nil && err != nil {
			break // the run ended under this probe
		}
		if i%2 == 0 {
			res.healthzMS = append(res.healthzMS, took)
		} else {
			res.windowMS = append(res.windowMS, took)
		}
		time.Sleep(50 * time.Millisecond)
	}
	cancel()
	wg.Wait()
	res.searches, res.refused, res.busy = answered.Load(), refused.Load(), busy.Load()
	res.slowReaders, res.readersN = int(opened.Load()), slow
	return res, nil
}

// slowRead asks for path on a connection with a tiny receive buffer and
// reads a little of the answer now and then, as a client on a bad line
// does, until ctx ends. It reports whether the server began to answer.
func slowRead(ctx context.Context, host, path string) bool {
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", host)
	if err != nil {
		return false
	}
	defer c.Close()
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetReadBuffer(4096)
	}
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", path, host)
	br := bufio.NewReaderSize(c, 512)
	status, err := br.ReadString('\n')
	began := err == nil && strings.Contains(status, " 200 ")
	buf := make([]byte, 512)
	for ctx.Err() == nil {
		c.SetReadDeadline(time.Now().Add(time.Second))
		if _, err := br.Read(buf); err != nil && !isTimeout(err) {
			break
		}
		select {
		case <-ctx.Done():
		case <-time.After(500 * time.Millisecond):
		}
	}
	return began
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
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

// String sums a stall run up in one line.
func (r stallResult) String() string {
	return fmt.Sprintf("healthz p50 %.1f ms p99 %.1f ms (%d probes); window p50 %.1f ms p99 %.1f ms (%d probes); %d probe errors; "+
		"%d of %d slow readers got an answer; heavy searches: %d answered, %d refused (400), %d shed (503)",
		quantile(r.healthzMS, 0.5), quantile(r.healthzMS, 0.99), len(r.healthzMS), quantile(r.windowMS, 0.5), quantile(r.windowMS, 0.99),
		len(r.windowMS), r.probeErrors, r.slowReaders, r.readersN, r.searches, r.refused, r.busy)
}

package main

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
)

// The mixed load of issue 52: at once, slow CSV downloads, heavy
// searches, editors reading review pages with full-text filters, evidence
// exports of 2,000 photos and a place added every 0.3 s — while /healthz
// and a city window are probed. Targets: /healthz p99 < 100 ms, a city
// window p99 < 250 ms, every review page < 2 s, a place add < 0.5 s.

// reviewFilters are review pages an editor asks with full-text filters.
var reviewFilters = []string{
	"/review?from=2012&to=2017&q=al*",
	"/review?q=aleppo",
	"/review?from=2016-01&to=2016-12&q=children",
	"/review?q=" + url.QueryEscape("rebel OR fighters"),
}

// mixedScenario runs the mix against srv for the stall's time.
func (r *reliability) mixedScenario(srv *server) (string, error) {
	ctx, cancel := context.WithCancel(r.ctx)
	defer cancel()
	var wg sync.WaitGroup
	var mu sync.Mutex
	var reviewMS, addMS []float64
	var exports, exportFailures, adds, addFailures int
	auth := func(req *http.Request) *http.Request {
		req.Header.Set("Authorization", "Bearer "+r.token)
		return req
	}
	hc := &http.Client{Timeout: 2 * time.Minute}
	// Four editors reading review pages with full-text filters.
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := i; ctx.Err() == nil; n++ {
				req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.url+reviewFilters[n%len(reviewFilters)], nil)
				start := time.Now()
				resp, err := hc.Do(auth(req))
				if err != nil {
					continue
				}
				drain(resp)
				if ctx.Err() == nil {
					mu.Lock()
					reviewMS = append(reviewMS, ms(time.Since(start)))
					mu.Unlock()
				}
			}
		}()
	}
	// One editor exporting evidence, 2,000 photos at a time.
	wg.Add(1)
	go func() {
		defer wg.Done()
		for m := 0; ctx.Err() == nil; m++ {
			// About 1,800 photos of the 200,000: twenty days (a bag of more
			// than 2,000 is the command's).
			month := fmt.Sprintf("%d-%02d", 2013+m%4, 1+m%12)
			form := url.Values{"from": {month + "-01"}, "to": {month + "-20"}}
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.url+"/evidence.zip", strings.NewReader(form.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			resp, err := hc.Do(auth(req))
			if err != nil {
				continue
			}
			drain(resp)
			mu.Lock()
			if resp.StatusCode == http.StatusOK {
				exports++
			} else {
				exportFailures++
			}
			mu.Unlock()
		}
	}()
	// A place added every 0.3 s.
	wg.Add(1)
	go func() {
		defer wg.Done()
		for n := 0; ctx.Err() == nil; n++ {
			// Names differ by letters: a name's digits fold away.
			body := fmt.Sprintf(`{"name": "Bench Shelter %s", "kind": "camp", "lon": %.4f, "lat": %.4f}`, spelled(time.Now().UnixNano()), 36.2+float64(n%100)/1000, 33.5)
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.url+"/api/places", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			start := time.Now()
			resp, err := hc.Do(auth(req))
			took := ms(time.Since(start))
			if err == nil {
				drain(resp)
				mu.Lock()
				if resp.StatusCode == http.StatusCreated {
					adds++
					addMS = append(addMS, took)
				} else {
					addFailures++
				}
				mu.Unlock()
			}
			time.Sleep(max(0, 300*time.Millisecond-time.Since(start)))
		}
	}()
	// The slow downloads (CSV) and heavy searches, with the probes.
	res, err := runStallPaths(r.ctx, srv.url, max(r.cfg.stall, time.Minute), 8, 4, "/api/photos.csv?from=2012")
	cancel()
	wg.Wait()
	if err != nil {
		return "", err
	}
	mu.Lock()
	defer mu.Unlock()
	return fmt.Sprintf("%s; review pages: %d, p50 %.0f ms, p99 %.0f ms, slowest %.0f ms; place adds: %d (%d failed), p50 %.0f ms, p99 %.0f ms, slowest %.0f ms; evidence exports: %d (%d failed)",
		res, len(reviewMS), quantile(reviewMS, 0.5), quantile(reviewMS, 0.99), slowest(reviewMS),
		adds, addFailures, quantile(addMS, 0.5), quantile(addMS, 0.99), slowest(addMS), exports, exportFailures), nil
}

func slowest(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	return slices.Max(xs)
}

// spelled writes n as a word, a syllable a digit (a name's digits fold
// away, and so do vowels and one-letter words).
func spelled(n int64) string {
	syllables := [...]string{"ba", "ke", "di", "mo", "nu", "ra", "se", "ti", "lo", "pu"}
	s := ""
	for {
		s = syllables[n%10] + s
		if n /= 10; n == 0 {
			return s
		}
	}
}

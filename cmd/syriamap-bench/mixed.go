package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
)

// The mixed load of issue 52: at once, slow CSV downloads, heavy
// searches, editors reading review pages with full-text filters, evidence
// exports of 2,000 photos, a place added every 0.3 s and a caption file
// uploaded every 2 s (issue 65, 9: each upload changes the review
// groups) — while /healthz and a city window are probed. Targets:
// /healthz p99 < 100 ms, a city window p99 < 250 ms, every review page
// < 2 s, a place add < 0.5 s.

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
	uploads := r.uploadEvery(ctx, &wg, srv, 2*time.Second)
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
	return fmt.Sprintf("%s; review pages: %d, p50 %.0f ms, p99 %.0f ms, slowest %.0f ms, %d over 2 s; place adds: %d (%d failed), p50 %.0f ms, p99 %.0f ms, slowest %.0f ms; evidence exports: %d (%d failed); %s",
		res, len(reviewMS), quantile(reviewMS, 0.5), quantile(reviewMS, 0.99), slowest(reviewMS), over(reviewMS, 2000),
		adds, addFailures, quantile(addMS, 0.5), quantile(addMS, 0.99), slowest(addMS), exports, exportFailures, uploads()), nil
}

// uploadEvery sends a caption file of one new photo through POST
// /api/imports as the bench editor every period until ctx is done, as an
// editor's uploads arrive, and returns what says how they went: how many
// were accepted (202) and refused, and the POST's times.
func (r *reliability) uploadEvery(ctx context.Context, wg *sync.WaitGroup, srv *server, period time.Duration) func() string {
	var mu sync.Mutex
	var took []float64
	var failed int
	wg.Add(1)
	go func() {
		defer wg.Done()
		for n := 0; ctx.Err() == nil; n++ {
			start := time.Now()
			// Each a new photo of a place the review filters select (al*).
			caption := fmt.Sprintf("Children walk past a shelter %s in Aleppo, Syria, May %d, 2016.\n", spelled(start.UnixNano()), 1+n%28)
			status, err := uploadCaptions(ctx, srv.url, r.token, fmt.Sprintf("upload-%d.txt", n), caption)
			if ctx.Err() != nil {
				return
			}
			mu.Lock()
			if err != nil || status != http.StatusAccepted {
				failed++
			} else {
				took = append(took, ms(time.Since(start)))
			}
			mu.Unlock()
			select {
			case <-ctx.Done():
				return
			case <-time.After(max(0, period-time.Since(start))):
			}
		}
	}()
	return func() string {
		mu.Lock()
		defer mu.Unlock()
		return fmt.Sprintf("uploads every %s: %d accepted (%d failed), p50 %.0f ms, slowest %.0f ms", period, len(took), failed, quantile(took, 0.5), slowest(took))
	}
}

// uploadCaptions posts one caption file named name as multipart to POST
// /api/imports and returns the answer's status.
func uploadCaptions(ctx context.Context, base, token, name, body string) (int, error) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	w, err := mw.CreateFormFile("files", name)
	if err != nil {
		return 0, err
	}
	io.WriteString(w, body)
	if err := mw.Close(); err != nil {
		return 0, err
	}
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, base+"/api/imports", &buf)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	drain(resp)
	return resp.StatusCode, nil
}

// over counts the times past limit (ms).
func over(xs []float64, limit float64) int {
	n := 0
	for _, x := range xs {
		if x > limit {
			n++
		}
	}
	return n
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

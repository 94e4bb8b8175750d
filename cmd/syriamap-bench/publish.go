package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/syriamap/syriamap/internal/http/headless"
)

// publishResult is the publish row: the static site of a whole archive
// (syriamap publish, no images), and a reader of it in Chromium over a
// plain static file server.
type publishResult struct {
	seconds, mb   float64
	firstMS       float64 // navigation to first markers, cold browser, median
	cityKB        float64 // data a reader fetched for a city view at z11
	cityFiles     string  // those files and their bytes, largest first
	readerBrowser bool    // the browser part ran
	// noRangesMS is firstMS over python3 -m http.server, a host that
	// answers a range request with the whole file (0: no python3).
	noRangesMS float64
}

// measurePublish publishes the archive db into the bench folder and reads
// it as a reader would.
func measurePublish(ctx context.Context, cfg config, size int, db string, progress func(string, ...any)) (publishResult, error) {
	var r publishResult
	out := filepath.Join(cfg.dir, "published-"+sizeName(size))
	if err := os.RemoveAll(out); err != nil {
		return r, err
	}
	progress("%s: syriamap publish (no images)", sizeName(size))
	start := time.Now()
	if b, err := exec.CommandContext(ctx, cfg.syriamap, "publish", "--db", db, "--no-images", out).CombinedOutput(); err != nil {
		return r, commandError("syriamap publish", err, b)
	}
	r.seconds = time.Since(start).Seconds()
	var total int64
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		if err == nil {
			total += fi.Size()
		}
		return err
	})
	if err != nil {
		return r, err
	}
	r.mb = float64(total) / 1e6

	// A plain file server with range requests: nothing of syriamap's.
	ts := httptest.NewServer(http.FileServer(http.Dir(out)))
	defer ts.Close()
	progress("%s: the published explorer in headless Chromium, cold each time", sizeName(size))
	first, err := coldFirstMarkers(ctx, ts.URL+coldView, cfg.loads)
	if errors.Is(err, headless.ErrNotInstalled) {
		return r, nil
	}
	if err != nil {
		return r, err
	}
	r.firstMS = first
	// Aleppo at zoom 11, one month: what its reader fetches of the data.
	_, bytes, files, err := readerView(ctx, ts.URL+"/?from=2016-03&to=2016-03&map=11/36.2000/37.1600")
	if err != nil {
		return r, err
	}
	r.cityKB = bytes / 1000
	r.cityFiles = files
	r.readerBrowser = true
	progress("%s: the published explorer over python3 -m http.server (no range requests), cold each time", sizeName(size))
	r.noRangesMS, err = noRangesFirstMarkers(ctx, out, cfg.loads)
	return r, err
}

// noRangesFirstMarkers serves the site at dir with python3 -m http.server,
// which answers a range request with the whole file, and opens it cold
// loads times; 0 without python3.
func noRangesFirstMarkers(ctx context.Context, dir string, loads int) (float64, error) {
	python, err := exec.LookPath("python3")
	if err != nil {
		return 0, nil
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	l.Close()
	cmd := exec.CommandContext(ctx, python, "-m", "http.server", port, "--bind", "127.0.0.1", "--directory", dir)
	if err := cmd.Start(); err != nil {
		return 0, fmt.Errorf("python3 -m http.server: %w", err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	url := "http://127.0.0.1:" + port
	deadline := time.Now().Add(20 * time.Second)
	for {
		res, err := http.Get(url + "/site.json")
		if err == nil {
			res.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			return 0, fmt.Errorf("python3 -m http.server did not answer on %s: %w", url, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	return coldFirstMarkers(ctx, url+coldView, loads)
}

// readerView opens url in a fresh headless Chromium (an empty cache) and
// returns the time to the first markers and the bytes of the site's data
// files fetched by then and by the list that follows, with those files.
func readerView(ctx context.Context, url string) (firstMS, dataBytes float64, files string, err error) {
	bctx, closeBrowser, err := headless.Start(ctx, 1440, 900)
	if err != nil {
		return 0, 0, "", err
	}
	defer closeBrowser()
	bctx, cancel := context.WithTimeout(bctx, 2*time.Minute)
	defer cancel()
	err = chromedp.Run(bctx, chromedp.Navigate(url),
		chromedp.Poll(`performance.getEntriesByName("syriamap:first-render").length > 0`, nil, chromedp.WithPollingTimeout(time.Minute)),
		chromedp.Evaluate(`performance.getEntriesByName("syriamap:first-render")[0].startTime`, &firstMS),
		chromedp.Sleep(1500*time.Millisecond), // the list follows the map after a pause
		chromedp.Evaluate(`performance.getEntriesByType("resource").filter((e) => new URL(e.name).pathname.startsWith("/data/")).reduce((n, e) => n + e.transferSize, 0)`, &dataBytes),
		chromedp.Evaluate(`performance.getEntriesByType("resource").filter((e) => new URL(e.name).pathname.startsWith("/data/"))
			.sort((a, b) => b.transferSize - a.transferSize).map((e) => new URL(e.name).pathname + " " + e.transferSize).join(", ")`, &files))
	if err != nil {
		return 0, 0, "", fmt.Errorf("the published explorer at %s: %w", url, err)
	}
	return firstMS, dataBytes, files, nil
}

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"

	"github.com/syriamap/syriamap/internal/http/headless"
)

// measureCold is the first-markers column of one archive size — what a
// reader who has never opened the explorer waits for, in a fresh headless
// Chromium (empty cache), from navigation to the first markers drawn, on
// the live server and on the archive's published copy: generate, import,
// serve and open cold; then publish and open cold. It takes none of
// the other rows, so it can run at sizes (20k, 250k) the full table does
// not.
func measureCold(ctx context.Context, cfg config, size int, res *Results, progress func(string, ...any)) error {
	name := sizeName(size)
	db, _, err := freshArchive(ctx, cfg, size, progress)
	if err != nil {
		return err
	}
	srv, err := startServer(ctx, cfg.syriamap, db)
	if err != nil {
		return err
	}
	progress("%s: the live explorer in headless Chromium, cold each time", name)
	// The browser is cold, not the server: one reader has been before.
	warmUp(ctx, srv.url+coldView)
	live, err := coldFirstMarkers(ctx, srv.url+coldView, cfg.loads)
	if cerr := srv.close(); cerr != nil && err == nil {
		err = fmt.Errorf("syriamap serve: %w: %s", cerr, srv.logs)
	}
	switch {
	case errors.Is(err, headless.ErrNotInstalled):
		res.SkipPrefix("cold.", size, err.Error())
		return nil
	case err != nil:
		res.Fail("cold.live", size, err)
	default:
		res.Set("cold.live_first_markers_ms", size, live)
	}
	pub, err := measurePublish(ctx, cfg, size, db, progress)
	switch {
	case err != nil:
		res.Fail("cold.published", size, err)
	case !pub.readerBrowser:
		res.SkipPrefix("cold.published", size, headless.ErrNotInstalled.Error())
	default:
		res.Set("cold.published_first_markers_ms", size, pub.firstMS)
		res.Set("cold.published_city_view_kb", size, pub.cityKB)
		setNoRanges(res, size, pub)
		res.Note(fmt.Sprintf("published city view at %s fetched: %s", name, pub.cityFiles))
	}
	return nil
}

// coldView is the view a cold load opens: a year of the war, the whole map.
const coldView = "/?from=2014-01&to=2014-12"

// warmUp asks for the explorer's page once, as a reader before this one
// did: the figures are of a fresh browser, not a server just started.
func warmUp(ctx context.Context, url string) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return
	}
	if res, err := http.DefaultClient.Do(req); err == nil {
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
	}
}

// coldFirstMarkers opens url in loads fresh browsers and returns the median
// time from navigation to the first markers drawn.
func coldFirstMarkers(ctx context.Context, url string, loads int) (float64, error) {
	var firsts []float64
	for range loads {
		ms, _, _, err := readerView(ctx, url)
		if err != nil {
			return 0, err
		}
		firsts = append(firsts, ms)
	}
	slices.Sort(firsts)
	return firsts[len(firsts)/2], nil
}

// setNoRanges records the published explorer's first markers over a host
// without range requests, or why they were not measured.
func setNoRanges(res *Results, size int, pub publishResult) {
	if pub.noRangesMS == 0 {
		res.SkipPrefix("cold.published_no_ranges", size, "python3 is not installed")
		return
	}
	res.Set("cold.published_no_ranges_first_markers_ms", size, pub.noRangesMS)
}

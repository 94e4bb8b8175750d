package main

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/syriamap/syriamap/internal/headless"
)

// browserResult is what the explorer measured of itself.
type browserResult struct {
	firstMS  float64   // navigation to the first clusters drawn, median of loads
	stepsMS  []float64 // each timeline step, sorted
	shown    string    // the page's count line after the last step
	serverOn bool      // the page asked the server for clusters
}

// runBrowser opens the explorer in headless Chromium loads times, then
// steps the timeline's window a month at a time with the keyboard, as a
// person scrubbing does. The page measures itself with the User Timing
// API: the mark "syriamap:first-render" when it first draws the photos,
// and one "syriamap:window" (points filtered and clustered in the page)
// or "syriamap:clusters" (clusters asked of the server, over a large
// archive) measure per step.
func runBrowser(ctx context.Context, base string, loads, steps int) (browserResult, error) {
	bctx, closeBrowser, err := headless.Start(ctx, 1280, 900)
	if err != nil {
		return browserResult{}, err
	}
	defer closeBrowser()
	bctx, cancel := context.WithTimeout(bctx, 5*time.Minute)
	defer cancel()

	var res browserResult
	var firsts []float64
	for range loads {
		var first float64
		err := chromedp.Run(bctx,
			chromedp.Navigate(base+"/?from=2014-01&to=2014-12"),
			chromedp.Poll(`performance.getEntriesByName("syriamap:first-render").length > 0`, nil,
				chromedp.WithPollingTimeout(time.Minute)),
			chromedp.Evaluate(`performance.getEntriesByName("syriamap:first-render")[0].startTime`, &first))
		if err != nil {
			return res, fmt.Errorf("explorer's first render: %w", err)
		}
		firsts = append(firsts, first)
	}
	slices.Sort(firsts)
	res.firstMS = firsts[len(firsts)/2]

	// Over a large archive the page asks the server after a short pause
	// in scrubbing; the wait between key presses lets every step's
	// request be made and drawn.
	if err := chromedp.Run(bctx, chromedp.Evaluate(`performance.clearMeasures()`, nil),
		chromedp.Focus(`[data-testid=brush]`, chromedp.ByQuery)); err != nil {
		return res, fmt.Errorf("focus the timeline: %w", err)
	}
	for range steps {
		if err := chromedp.Run(bctx, chromedp.KeyEvent("\u0303"), chromedp.Sleep(300*time.Millisecond)); err != nil { // ArrowRight
			return res, fmt.Errorf("step the timeline: %w", err)
		}
	}
	var measured struct {
		Server bool      `json:"server"`
		Steps  []float64 `json:"steps"`
	}
	err = chromedp.Run(bctx, chromedp.Evaluate(`(() => {
		const c = performance.getEntriesByName("syriamap:clusters");
		const steps = (c.length ? c : performance.getEntriesByName("syriamap:window")).map((e) => e.duration);
		return {server: c.length > 0, steps};
	})()`, &measured), chromedp.Text(`[data-testid=count]`, &res.shown, chromedp.ByQuery))
	if err != nil {
		return res, fmt.Errorf("read the page's measures: %w", err)
	}
	if len(measured.Steps) == 0 {
		return res, fmt.Errorf("the page measured none of %d timeline steps", steps)
	}
	res.stepsMS, res.serverOn = measured.Steps, measured.Server
	slices.Sort(res.stepsMS)
	return res, nil
}

// quantile returns the p-th quantile (nearest rank) of sorted xs.
func quantile(xs []float64, p float64) float64 {
	return xs[int(p*float64(len(xs)-1)+0.5)]
}

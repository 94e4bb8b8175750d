package main

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/syriamap/syriamap/internal/http/headless"
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
// person scrubbing does. The page marks with the User Timing API when it
// first draws the photos ("syriamap:first-render") and measures each
// redraw; see stepTimer.
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

	// A step is timed in the page from the key press to the end of the
	// page's own measure of the redraw: "syriamap:window" (points
	// filtered and clustered in the page) or, over a large archive,
	// "syriamap:clusters" (clusters fetched from the server and drawn, after
	// the page's short wait for the scrubbing to pause). Each step is
	// awaited before the next, so none is cut short by the one after.
	err = chromedp.Run(bctx, chromedp.Evaluate(stepTimer, &res.serverOn),
		chromedp.Focus(`[data-testid=brush]`, chromedp.ByQuery))
	if err != nil {
		return res, fmt.Errorf("focus the timeline: %w", err)
	}
	for i := range steps {
		err := chromedp.Run(bctx, chromedp.KeyEvent("\u0303"), // ArrowRight
			chromedp.Poll(fmt.Sprintf("window.__syriamapSteps.length > %d", i), nil, chromedp.WithPollingTimeout(20*time.Second)))
		if err != nil {
			return res, fmt.Errorf("timeline step %d: %w", i+1, err)
		}
	}
	err = chromedp.Run(bctx, chromedp.Evaluate(`window.__syriamapSteps`, &res.stepsMS),
		chromedp.Text(`[data-testid=count]`, &res.shown, chromedp.ByQuery))
	if err != nil {
		return res, fmt.Errorf("read the page's measures: %w", err)
	}
	slices.Sort(res.stepsMS)
	return res, nil
}

// stepTimer installs the step timer and reports whether the page asks the
// server for clusters.
const stepTimer = `(() => {
	const server = performance.getEntriesByName("syriamap:clusters").length > 0;
	const name = server ? "syriamap:clusters" : "syriamap:window";
	window.__syriamapSteps = [];
	let pressed = 0;
	document.addEventListener("keydown", () => { pressed = performance.now(); }, true);
	new PerformanceObserver((list) => {
		for (const e of list.getEntries()) {
			if (e.name === name && pressed) {
				window.__syriamapSteps.push(e.startTime + e.duration - pressed);
				pressed = 0;
			}
		}
	}).observe({ entryTypes: ["measure"] });
	return server;
})()`

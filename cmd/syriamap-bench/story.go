package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/syriamap/syriamap/internal/http/headless"
)

// storySteps is how many steps the bench's story has (issue 30: a story
// of 50 steps over a million photos).
const storySteps = 50

// measureStory writes a 50-step story into the served archive through
// the API (an editor and a token made with the syriamap command), then
// steps through it in headless Chromium with the arrow key, timing each
// step from the key to the map and timeline settled (the page's own
// measure, "syriamap:story-step"), with reduced motion: the flight the
// map makes otherwise lasts 0.8 s by design. It returns the times in ms,
// sorted.
func measureStory(ctx context.Context, bin, db, base string) ([]float64, error) {
	add := exec.CommandContext(ctx, bin, "users", "add", "--db", db, "--password-stdin", "bench")
	add.Stdin = strings.NewReader("bench-password-long-enough\n")
	if out, err := add.CombinedOutput(); err != nil && !strings.Contains(string(out), "already") {
		return nil, commandError("syriamap users add", err, out)
	}
	tok, err := exec.CommandContext(ctx, bin, "tokens", "create", "--db", db, "bench").Output()
	if err != nil {
		return nil, fmt.Errorf("syriamap tokens create: %w", err)
	}
	token := strings.TrimSpace(string(tok))
	// Photos for the photo steps: the first 75.
	res, err := http.Get(base + "/api/photos.geojson?limit=75")
	if err != nil {
		return nil, err
	}
	var fc struct {
		Features []struct {
			ID string `json:"id"`
		} `json:"features"`
	}
	err = json.NewDecoder(res.Body).Decode(&fc)
	res.Body.Close()
	if err != nil || len(fc.Features) < 75 {
		return nil, fmt.Errorf("photos for the story: %v (%d)", err, len(fc.Features))
	}
	type ref struct {
		ID string `json:"id"`
	}
	type step struct {
		Heading   string `json:"heading"`
		Text      string `json:"text"`
		Photos    []ref  `json:"photos,omitempty"`
		State     string `json:"state,omitempty"`
		Highlight string `json:"highlight,omitempty"`
	}
	cities := [][2]float64{{36.2, 37.16}, {33.51, 36.29}, {34.73, 36.71}, {35.93, 36.63}, {35.95, 39.01}}
	var steps []step
	for i := range storySteps {
		s := step{Heading: fmt.Sprintf("Step %d", i+1), Text: "What the photos show, **in order**."}
		if i%2 == 0 {
			for _, f := range fc.Features[(i/2)*3%75 : (i/2)*3%75+3] {
				s.Photos = append(s.Photos, ref{f.ID})
			}
			s.Highlight = s.Photos[0].ID
		} else {
			c := cities[i%len(cities)]
			m := fmt.Sprintf("%d-%02d", 2012+i%6, 1+i%12)
			s.State = fmt.Sprintf("from=%s&to=%s&map=11/%.2f/%.2f", m, m, c[0], c[1])
		}
		steps = append(steps, s)
	}
	body, _ := json.Marshal(map[string]any{"title": "Bench story", "slug": "bench-story", "status": "published", "steps": steps})
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, base+"/api/stories", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated && resp.StatusCode != http.StatusBadRequest { // 400: written by an earlier run
		return nil, fmt.Errorf("writing the story: %s", resp.Status)
	}

	bctx, closeBrowser, err := headless.Start(ctx, 1440, 900)
	if err != nil {
		return nil, err
	}
	defer closeBrowser()
	bctx, cancel := context.WithTimeout(bctx, 5*time.Minute)
	defer cancel()
	err = chromedp.Run(bctx,
		emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}),
		chromedp.Navigate(base+"/stories/bench-story"),
		chromedp.Poll(`document.querySelector("[data-testid=story]")?.dataset.settled === "1"`, nil, chromedp.WithPollingTimeout(time.Minute)))
	if err != nil {
		return nil, fmt.Errorf("the story's first step: %w", err)
	}
	var took []float64
	for i := 2; i <= storySteps; i++ {
		var ms float64
		err := chromedp.Run(bctx, chromedp.KeyEvent("\u0301"), // ArrowDown
			chromedp.Poll(fmt.Sprintf(`document.querySelector("[data-testid=story]").dataset.settled === "%d"`, i), nil, chromedp.WithPollingTimeout(20*time.Second)),
			chromedp.Evaluate(`performance.getEntriesByName("syriamap:story-step").at(-1).duration`, &ms))
		if err != nil {
			return nil, fmt.Errorf("story step %d: %w", i, err)
		}
		took = append(took, ms)
	}
	slices.Sort(took)
	return took, nil
}

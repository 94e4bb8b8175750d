package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"time"
)

// cityBoxes are the bounding boxes (west,south,east,north) the window
// queries pick from, as the map asks for when a user looks at a city:
// Aleppo, Damascus, Homs and Idlib. The wrk script (window.lua) is
// filled in with the same.
var cityBoxes = []string{
	"36.9,36.0,37.4,36.4",
	"36.1,33.3,36.6,33.7",
	"36.5,34.6,36.9,34.9",
	"36.3,35.6,36.9,36.1",
}

// client asks one server for documents and times them; it does not
// decompress, so gzip sizes are what crossed the socket.
type client struct {
	base string
	http *http.Client
}

func newClient(base string) *client {
	return &client{base: base, http: &http.Client{Transport: &http.Transport{DisableCompression: true}}}
}

// get fetches path whole and returns its body (nil unless keep), its size
// on the wire and the time from request to last byte.
func (c *client) get(ctx context.Context, path string, gzip, keep bool) ([]byte, int64, time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
	if err != nil {
		return nil, 0, 0, err
	}
	if gzip {
		req.Header.Set("Accept-Encoding", "gzip")
	}
	start := time.Now()
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, 0, 0, fmt.Errorf("GET %s: %w", path, err)
	}
	defer resp.Body.Close()
	var body bytes.Buffer
	var w io.Writer = io.Discard
	if keep {
		w = &body
	}
	n, err := io.Copy(w, resp.Body)
	took := time.Since(start)
	if err != nil {
		return nil, 0, 0, fmt.Errorf("GET %s: %w", path, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, 0, 0, fmt.Errorf("GET %s: %s", path, resp.Status)
	}
	return body.Bytes(), n, took, nil
}

// measureAPI times the API as the map and GIS users use it.
func measureAPI(ctx context.Context, c *client, cfg config, size int, res *Results) error {
	// One-month windows in a city's box: the explorer's request when a
	// user scrubs the timeline over a city.
	rng := rand.New(rand.NewPCG(1, 2))
	var took []float64 // milliseconds
	features := 0
	for i := range cfg.warmup + cfg.windows {
		m := fmt.Sprintf("%d-%02d", 2012+rng.IntN(6), 1+rng.IntN(12))
		path := "/api/photos.geojson?from=" + m + "&to=" + m + "&bbox=" + cityBoxes[rng.IntN(len(cityBoxes))]
		body, _, d, err := c.get(ctx, path, false, true)
		if err != nil {
			return err
		}
		if i >= cfg.warmup {
			took = append(took, ms(d))
			features += bytes.Count(body, []byte(`{"type":"Feature",`))
		}
	}
	res.Set("api.window_p50_ms", size, quantile(took, 0.50))
	res.Set("api.window_p99_ms", size, quantile(took, 0.99))
	res.Set("api.window_features", size, float64(features)/float64(len(took)))

	// The whole archive, as a GIS user downloads it.
	for _, gz := range []bool{false, true} {
		var took []float64
		var n int64
		for range cfg.fullReps {
			_, wire, d, err := c.get(ctx, "/api/photos.geojson", gz, false)
			if err != nil {
				return err
			}
			took, n = append(took, ms(d)), wire
		}
		key := map[bool]string{false: "api.full", true: "api.full_gzip"}[gz]
		res.Set(key+"_ms", size, quantile(took, 0.5))
		res.Set(key+"_mb", size, float64(n)/1e6)
	}

	// The timeline's monthly counts over the whole archive (not cached by
	// the server: each request counts).
	took = took[:0]
	for range cfg.timelineReps {
		_, _, d, err := c.get(ctx, "/api/timeline", true, false)
		if err != nil {
			return err
		}
		took = append(took, ms(d))
	}
	res.Set("api.timeline_ms", size, quantile(took, 0.5))
	return nil
}

// quantile returns the p-th quantile (nearest rank) of xs.
func quantile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[int(p*float64(len(s)-1)+0.5)]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

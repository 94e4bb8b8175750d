package main

import (
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
)

// geocodeRuns is how many times the geocoder's benchmark runs; the median
// is reported, as benchstat does, so one run slowed by a neighbour on a
// shared machine does not make the figure.
const geocodeRuns = 3

// runGeocodeBenchmark runs the geocoder's Go benchmark on one core and
// returns the median of its captions per second: the figure `go test
// -bench BenchmarkGeocode -cpu 1 ./internal/geoparse/geocode` prints.
func runGeocodeBenchmark(ctx context.Context, goCmd, benchtime string) (float64, error) {
	cmd := exec.CommandContext(ctx, goCmd, "test", "-run", "^$", "-bench", "^BenchmarkGeocode$",
		"-cpu", "1", "-count", strconv.Itoa(geocodeRuns), "-benchtime", benchtime, "github.com/syriamap/syriamap/internal/geoparse/geocode")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return 0, commandError("go test -bench BenchmarkGeocode", err, out)
	}
	return parseCaptionsPerSecond(out)
}

var captionsPerSecond = regexp.MustCompile(`(?m)^BenchmarkGeocode\s+\d+\s+.*?([\d.]+) captions/s`)

// parseCaptionsPerSecond returns the median captions/s of the runs in out.
func parseCaptionsPerSecond(out []byte) (float64, error) {
	var runs []float64
	for _, m := range captionsPerSecond.FindAllSubmatch(out, -1) {
		v, err := strconv.ParseFloat(string(m[1]), 64)
		if err != nil {
			return 0, err
		}
		runs = append(runs, v)
	}
	if len(runs) == 0 {
		return 0, fmt.Errorf("BenchmarkGeocode reported no captions/s: %s", out)
	}
	return quantile(runs, 0.5), nil
}

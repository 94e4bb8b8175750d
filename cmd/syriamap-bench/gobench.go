package main

import (
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
)

// runGeocodeBenchmark runs the geocoder's Go benchmark on one core and
// returns its captions per second: the same figure `go test -bench
// BenchmarkGeocode -cpu 1 ./internal/geocode` prints.
func runGeocodeBenchmark(ctx context.Context, goCmd, benchtime string) (float64, error) {
	cmd := exec.CommandContext(ctx, goCmd, "test", "-run", "^$", "-bench", "^BenchmarkGeocode$",
		"-cpu", "1", "-count", "1", "-benchtime", benchtime, "github.com/syriamap/syriamap/internal/geocode")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return 0, commandError("go test -bench BenchmarkGeocode", err, out)
	}
	return parseCaptionsPerSecond(out)
}

var captionsPerSecond = regexp.MustCompile(`(?m)^BenchmarkGeocode\s+\d+\s+.*?([\d.]+) captions/s`)

func parseCaptionsPerSecond(out []byte) (float64, error) {
	m := captionsPerSecond.FindSubmatch(out)
	if m == nil {
		return 0, fmt.Errorf("BenchmarkGeocode reported no captions/s: %s", out)
	}
	return strconv.ParseFloat(string(m[1]), 64)
}

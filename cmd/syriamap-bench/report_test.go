package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

func TestTargets(t *testing.T) {
	tests := []struct {
		key   string
		size  int
		value float64
		want  string
	}{
		{"geocode.captions_per_s_core", 0, 100_000, "ok"},
		{"geocode.captions_per_s_core", 0, 99_999, "missed"},
		{"import.seconds", 1_000_000, 59.9, "ok"},
		{"import.seconds", 1_000_000, 60, "missed"},
		{"import.seconds", 100_000, 600, "no target"}, // the target is at 1M only
		{"api.full_gzip_ms", 100_000, 301, "missed"},
		{"api.full_gzip_ms", 1_000_000, 3000, "no target"}, // up to 100k
		{"load.errors", 10_000, 0, "ok"},
		{"load.errors", 10_000, 1, "missed"},
		{"api.window_p99_ms", 10_000, 1e6, "no target"},
	}
	for _, tt := range tests {
		res := newResults()
		res.Set(tt.key, tt.size, tt.value)
		sizes := []int{tt.size}
		if tt.size == 0 {
			sizes = []int{10_000}
		}
		for _, row := range res.rows(sizes) {
			if row.Key != tt.key {
				continue
			}
			if got := row.Cells[0].Status; got != tt.want {
				t.Errorf("%s = %v at %d: status %q, want %q", tt.key, tt.value, tt.size, got, tt.want)
			}
		}
	}
}

// TestTable checks the printed table against a golden file: every
// measure, a missed target marked, unmeasured cells explained.
func TestTable(t *testing.T) {
	sizes := []int{10_000, 100_000, 1_000_000}
	res := newResults()
	for i, m := range measures {
		if !m.perSize {
			res.Set(m.key, 0, 104_321)
			continue
		}
		res.Set(m.key, 10_000, float64(i)+0.25)
		res.Set(m.key, 100_000, float64(i*100)+0.5)
		res.Skip(m.key, 1_000_000, "not run (QUICK)")
	}
	res.Set("api.full_gzip_ms", 100_000, 399)
	res.Skip("load.rps", 100_000, "wrk is not installed")
	rep := &Report{Date: "2026-11-30 12:00 UTC", Commit: "abc1234", CPU: "Test CPU", Cores: 2, GOMAXPROCS: 2,
		OS: "linux/amd64", Go: "go1.26", Quick: true, Sizes: sizes, Rows: res.rows(sizes),
		Notes: []string{"browser at 10k: 12 timeline steps clustered in the page"}}
	var out bytes.Buffer
	if err := rep.WriteTable(&out); err != nil {
		t.Fatal(err)
	}
	golden(t, "table.golden", out.Bytes())
	for _, want := range []string{"399 !", "MISSED at 100k", "at 1M, every measure: not run (QUICK)",
		"at 100k, load.rps: wrk is not installed", "2 cores"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the table lacks %q", want)
		}
	}
	if n := strings.Count(out.String(), "\n"); n < len(measures)+5 {
		t.Errorf("%d lines for %d measures", n, len(measures))
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (go test -update to accept):\n%s", path, got)
	}
}

func TestFormatValue(t *testing.T) {
	for v, want := range map[float64]string{0.123: "0.12", 3.456: "3.46", 12.34: "12.3", 123.4: "123", 1234.5: "1,235",
		104321: "104,321", 1e6: "1,000,000", 0: "0", 7: "7"} {
		if got := formatValue(v); got != want {
			t.Errorf("formatValue(%v) = %q, want %q", v, got, want)
		}
	}
	for n, want := range map[int]string{10_000: "10k", 1_000_000: "1M", 2500: "2500", 1500_000: "1500k"} {
		if got := sizeName(n); got != want {
			t.Errorf("sizeName(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestParseWrk(t *testing.T) {
	tests := []struct {
		file       string
		requests   int64
		errors     int64
		rps, p99ms float64
	}{
		{"wrk.txt", 5485, 0, 4989.35, 8.439},
		{"wrk-errors.txt", 2583, 2583, 2348.84, 1.761},
	}
	for _, tt := range tests {
		out, err := os.ReadFile(filepath.Join("testdata", tt.file))
		if err != nil {
			t.Fatal(err)
		}
		got, err := parseWrk(out)
		if err != nil {
			t.Fatal(err)
		}
		want := loadResult{requests: tt.requests, errors: tt.errors, rps: tt.rps, p99ms: tt.p99ms}
		if got != want {
			t.Errorf("%s: %+v, want %+v", tt.file, got, want)
		}
	}
	if _, err := parseWrk([]byte("unable to connect to 127.0.0.1:1 Connection refused")); err == nil {
		t.Error("wrk output without figures was read")
	}
}

func TestParseCaptionsPerSecond(t *testing.T) {
	out := []byte("goos: linux\ncpu: AMD EPYC\nBenchmarkGeocode \t  119557\t      9518 ns/op\t    105060 captions/s\t    1776 B/op\t      17 allocs/op\nPASS\n")
	if got, err := parseCaptionsPerSecond(out); err != nil || got != 105060 {
		t.Errorf("got %v, %v", got, err)
	}
	three := []byte("BenchmarkGeocode \t 1\t 1 ns/op\t 98000 captions/s\nBenchmarkGeocode \t 1\t 1 ns/op\t 104000 captions/s\nBenchmarkGeocode \t 1\t 1 ns/op\t 91000 captions/s\n")
	if got, err := parseCaptionsPerSecond(three); err != nil || got != 98000 {
		t.Errorf("three runs: got %v, %v; want the median, 98000", got, err)
	}
	if _, err := parseCaptionsPerSecond([]byte("FAIL")); err == nil {
		t.Error("no figure, no error")
	}
}

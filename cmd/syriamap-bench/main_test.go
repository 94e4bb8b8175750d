package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/syriamap/syriamap/internal/http/headless"
)

// TestBenchSmall runs the whole bench on one small archive: syriamap is
// built, captions generated and imported, the server started and measured
// with the Go client, wrk and headless Chromium, and the table and JSON
// written with a value in every cell. Without wrk or chromium it is
// skipped, except under CI.
func TestBenchSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds syriamap and runs a browser")
	}
	_, noWrk := exec.LookPath("wrk")
	_, noChromium := headless.Path()
	if noWrk != nil || noChromium != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("wrk: %v; chromium: %v; CI must install both", noWrk, noChromium)
		}
		t.Skip("wrk or chromium is not installed")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "syriamap")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/syriamap/syriamap/cmd/syriamap").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v: %s", err, out)
	}
	out := filepath.Join(dir, "out", "results.json")
	var stdout, stderr strings.Builder
	err := run(context.Background(), []string{"--syriamap", bin, "--dir", dir, "--out", out, "--quick", "--sizes", "1500", "--cold-sizes", "2500"}, &stdout, &stderr)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	for _, m := range measures {
		if !strings.Contains(stdout.String(), m.label) {
			t.Errorf("the table lacks %q", m.label)
		}
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var rep Report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "timeline steps clustered in the page") {
		t.Errorf("no note of how the page clustered:\n%s", stdout.String())
	}
	checkBenchReport(t, rep, stdout.String())
}

// checkBenchReport checks TestBenchSmall's report: every row, each
// measured at the sizes it runs at (the cold rows alone at the second),
// with plausible figures.
func checkBenchReport(t *testing.T, rep Report, table string) {
	t.Helper()
	if len(rep.Rows) != len(measures) || rep.Cores < 1 || !rep.Quick {
		t.Fatalf("report: %d rows, %d cores, quick %v", len(rep.Rows), rep.Cores, rep.Quick)
	}
	if len(rep.Sizes) != 2 || rep.Sizes[1] != 2500 {
		t.Fatalf("columns %v, want 1500 (full) and 2500 (cold rows only)", rep.Sizes)
	}
	for _, row := range rep.Rows {
		for _, c := range row.Cells {
			coldOnly := c.Size == 2500 && !strings.HasPrefix(row.Key, "cold.")
			if c.Value == nil && !coldOnly {
				t.Errorf("%s at %d: not measured: %s", row.Key, c.Size, c.Status)
			}
			if c.Value != nil && coldOnly {
				t.Errorf("%s at %d: measured, but only the cold rows run at that size", row.Key, c.Size)
			}
		}
	}
	cell := func(key string) float64 {
		for _, row := range rep.Rows {
			if row.Key == key && row.Cells[0].Value != nil {
				return *row.Cells[0].Value
			}
		}
		return -1
	}
	if cell("load.errors") != 0 || cell("load.rps") <= 0 || cell("api.full_mb") <= cell("api.full_gzip_mb") ||
		cell("api.window_features") <= 0 || cell("memory.peak_rss_mib") < cell("memory.peak_private_mib") || cell("memory.peak_pss_mib") <= 0 {
		t.Errorf("implausible figures:\n%s", table)
	}
}

func TestConfig(t *testing.T) {
	cfg, err := parseConfig([]string{"--syriamap", "x", "--quick"}, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.sizes) != 3 || len(cfg.run) != 2 || cfg.run[1] != 100_000 {
		t.Errorf("quick: columns %v, run %v; want 10k, 100k of 10k, 100k, 1M", cfg.sizes, cfg.run)
	}
	if len(cfg.coldSizes) != 1 || cfg.coldSizes[0] != 20_000 {
		t.Errorf("quick: cold sizes %v, want 20k (250k is a long run's)", cfg.coldSizes)
	}
	full, err := parseConfig([]string{"--syriamap", "x"}, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	if got := full.columns(); len(got) != 5 || got[1] != 20_000 || got[3] != 250_000 {
		t.Errorf("columns %v, want 10k 20k 100k 250k 1M", got)
	}
	for _, args := range [][]string{{}, {"--syriamap", "x", "--sizes", "10,-1"}, {"--syriamap", "x", "--sizes", "ten"}} {
		if _, err := parseConfig(args, &strings.Builder{}); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
}

// TestBenchReportsFailures: a run whose tools fail still prints the table
// and writes the JSON, with each failure in its cells, and ends in error.
func TestBenchReportsFailures(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "results.json")
	var stdout, stderr strings.Builder
	err := run(context.Background(), []string{"--syriamap", filepath.Join(dir, "missing"), "--go", "false",
		"--dir", dir, "--out", out, "--sizes", "1000", "--cold-sizes", ""}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "2 measurements failed") {
		t.Errorf("err = %v, want 2 measurements failed (the geocoder's, the archive's)", err)
	}
	for _, want := range []string{"once per run, geocode.captions_per_s_core: FAILED: go test -bench BenchmarkGeocode",
		"at 1k, every measure: FAILED: syriamap gen"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, stdout.String())
		}
	}
	if _, err := os.Stat(out); err != nil {
		t.Error(err)
	}
}

// TestPublishRow measures the publish row alone on an archive a bench
// run left, without the rest of the bench:
//
//	SYRIAMAP_BENCH_PUBLISH_DB=/tmp/syriamap-bench/archive-1M.db go test -run TestPublishRow -v ./cmd/syriamap-bench
func TestPublishRow(t *testing.T) {
	db := os.Getenv("SYRIAMAP_BENCH_PUBLISH_DB")
	if db == "" {
		t.Skip("SYRIAMAP_BENCH_PUBLISH_DB names no archive")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "syriamap")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/syriamap/syriamap/cmd/syriamap").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v: %s", err, out)
	}
	fi, err := os.Stat(db)
	if err != nil {
		t.Fatal(err)
	}
	cfg := config{syriamap: bin, dir: dir, loads: 3}
	r, err := measurePublish(context.Background(), cfg, 1, db, func(f string, a ...any) { t.Logf(f, a...) })
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("publish %.1f s, %.0f MB (%.2f× the archive's %.0f MB), first markers %.0f ms (median of 3, cold), city view data %.0f KB (%s)",
		r.seconds, r.mb, r.mb*1e6/float64(fi.Size()), float64(fi.Size())/1e6, r.firstMS, r.cityKB, r.cityFiles)
	t.Logf("over python3 -m http.server (no range requests): first markers %.0f ms (median of 3, cold)", r.noRangesMS)
}

// TestStoryRow measures the story rows alone on an archive a bench run
// left (it writes an editor, a token and the story into it):
//
//	SYRIAMAP_BENCH_STORY_DB=/tmp/syriamap-bench/archive-1M.db go test -run TestStoryRow -v ./cmd/syriamap-bench
func TestStoryRow(t *testing.T) {
	db := os.Getenv("SYRIAMAP_BENCH_STORY_DB")
	if db == "" {
		t.Skip("SYRIAMAP_BENCH_STORY_DB names no archive")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "syriamap")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/syriamap/syriamap/cmd/syriamap").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v: %s", err, out)
	}
	srv, err := startServer(context.Background(), bin, db)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.close()
	srv.waitIndex(context.Background()) // as in a bench run
	took, err := measureStory(context.Background(), bin, db, srv.url)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("a %d-step story: step p50 %.1f ms, p99 %.1f ms, max %.1f ms (all: %.0f)", storySteps, quantile(took, 0.5), quantile(took, 0.99), took[len(took)-1], took)
}

// TestReviewLoopOverHTTP plays the review loop on the shared labelled
// captions with the real binary: import, the least confident fifth
// reviewed through PUT /api/photos/{id}/placement, regeocode. It fails
// when the photos nobody reviewed come out worse: fewer placed right, or
// fewer of the sure answers right. Without ../shared/eval it is skipped,
// except under CI.
func TestReviewLoopOverHTTP(t *testing.T) {
	if testing.Short() {
		t.Skip("builds syriamap")
	}
	eval := filepath.Join("..", "..", "..", "shared", "eval")
	files := []string{"dev-captions.jsonl", "dev-captions-2.jsonl", "arabic-dev-captions.jsonl"}
	for i, f := range files {
		files[i] = filepath.Join(eval, f)
		if _, err := os.Stat(files[i]); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("CI runs with ../shared beside the repo: %v", err)
			}
			t.Skip(err)
		}
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "syriamap")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/syriamap/syriamap/cmd/syriamap").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v: %s", err, out)
	}
	var stdout strings.Builder
	before, after, err := runReviewLoop(context.Background(), bin, dir, files, &stdout)
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + stdout.String())
	if before.n == 0 || before.n != after.n || after.sure == 0 {
		t.Fatalf("nothing measured: before %+v, after %+v", before, after)
	}
	rate := func(s loopScore) float64 { return float64(s.sureRight) / float64(max(1, s.sure)) }
	if after.right < before.right || rate(after) < rate(before) {
		t.Errorf("the review loop made the unreviewed answers worse:\n%s", stdout.String())
	}
	// regeocode says what it decided about the refit, and why.
	if out := stdout.String(); !strings.Contains(out, "confidence: refitted on") && !strings.Contains(out, "the archive keeps its model") {
		t.Errorf("regeocode did not say whether it refitted the confidence on the reviews:\n%s", out)
	}
}

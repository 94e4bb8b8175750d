// Command syriamap-bench measures syriamap the same way every time and
// prints one table: it generates archives of synthetic captions at each
// size, imports them with the syriamap binary, serves each on loopback and
// measures the API (Go client and wrk), the server's memory and the
// explorer in headless Chromium, then writes the table as JSON too.
//
//	go build -o /tmp/b/syriamap ./cmd/syriamap
//	go run ./cmd/syriamap-bench --syriamap /tmp/b/syriamap [--quick] [--out bench/results.json]
//
// `make bench` (QUICK=1 for the short run) does both.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/syriamap/syriamap/internal/http/headless"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "syriamap-bench:", err)
		os.Exit(1)
	}
}

// config is how much a run measures; --quick shortens every part.
type config struct {
	syriamap, goCmd, dir, out string
	quick                     bool
	sizes                     []int // the full table's sizes
	run                       []int // the sizes measured (QUICK leaves 1M out)
	// coldSizes are sizes at which only the cold rows (first markers in a
	// fresh browser, live and published) are measured.
	coldSizes              []int
	benchtime              string
	warmup, windows        int
	fullReps, timelineReps int
	load                   time.Duration
	loads, steps           int
	stall                  time.Duration // each size's stall scenario
	// stallURL, when set, runs only the stall scenario against a server
	// already running there (to compare builds); stallSearch replaces its
	// heavy searches.
	stallURL, stallSearch string
	stallSlow, stallHeavy int
	// reliability, when not 0, runs only the reliability scenarios on an
	// archive of that many photos.
	reliability int
	// scenarios, when not empty, are the reliability scenarios run (by
	// the start of their names: "mixed", "image bombs").
	scenarios []string
	// images, when not 0, only measures importing that many JPEGs.
	images int
	// engines: only compare SQLite and PostgreSQL at this size (engines.go).
	engines int
	// copyPhotos, when not 0, runs only syriamap copy to PostgreSQL
	// (copyServer, or a throwaway cluster) and back on an archive of this
	// many generated photos.
	copyPhotos int
	copyServer string
	// peer, when set, is pg_featureserv's folder: the run measures
	// syriamap against it instead of printing the table.
	peer string
	// reviewLoop, when set, are labelled caption files: the run plays the
	// review loop on them instead (reviewloop.go).
	reviewLoop []string
}

func parseConfig(args []string, stderr io.Writer) (config, error) {
	fl := flag.NewFlagSet("syriamap-bench", flag.ContinueOnError)
	fl.SetOutput(stderr)
	var c config
	fl.StringVar(&c.syriamap, "syriamap", "", "the syriamap binary to measure (required)")
	fl.StringVar(&c.goCmd, "go", "go", "the go command, for the geocoder's Go benchmark")
	fl.StringVar(&c.dir, "dir", filepath.Join(os.TempDir(), "syriamap-bench"), "scratch folder for captions and archives")
	fl.StringVar(&c.out, "out", "bench/results.json", "where to write the table as JSON")
	fl.BoolVar(&c.quick, "quick", false, "a short run (under 2 minutes): no 1M archive, fewer repetitions")
	sizes := fl.String("sizes", "10000,100000,1000000", "the archive sizes, comma separated")
	coldSizes := fl.String("cold-sizes", "20000,250000", "further sizes at which only first markers in a fresh browser (live and published) are measured, comma separated; empty for none")
	fl.IntVar(&c.reliability, "reliability", 0, "only run the reliability scenarios (image bombs, 250 sign-ins, stalled gzip clients with writes, the stall with review pages, the mixed load) on an archive of this many generated photos")
	scenarios := fl.String("scenarios", "", "with --reliability: the scenarios to run, comma separated, by the start of their names (mixed, image bombs…); all when empty; replicas (two replicas on a private PostgreSQL behind haproxy, one killed, then PostgreSQL stopped 10 s) only when named")
	fl.StringVar(&c.stallURL, "stall", "", "only run the stall scenario (8 slow readers, 8 heavy searches) against the server at this URL")
	fl.StringVar(&c.stallSearch, "stall-search", "", "with --stall: the heavy search to send instead of the built-in ones")
	stallFor := fl.Duration("stall-for", 20*time.Second, "with --stall: how long to run it")
	fl.IntVar(&c.stallSlow, "stall-slow", 8, "with --stall: how many slow readers")
	fl.IntVar(&c.stallHeavy, "stall-heavy", 8, "with --stall: how many heavy searchers")
	fl.StringVar(&c.peer, "peer", "", "measure syriamap against pg_featureserv from this folder (../shared/peers/pg_featureserv-1.3.1) at each size, side by side")
	fl.IntVar(&c.engines, "engines", 0, "only compare the engines: an archive of this many generated photos on SQLite and copied to a private PostgreSQL and back (syriamap copy), each served and measured on the repeated window and the first answer after a write")
	fl.IntVar(&c.copyPhotos, "copy", 0, "only measure syriamap copy of an archive of this many generated photos to PostgreSQL and back, with verify on each copy")
	fl.StringVar(&c.copyServer, "postgres", "", "with --copy: a PostgreSQL server's URL whose user may create databases; empty starts a throwaway cluster")
	fl.IntVar(&c.images, "images", 0, "only measure importing this many JPEGs of about 5 MB each (made once under --dir)")
	loop := fl.String("review-loop", "", "only play the review loop on these labelled caption files (JSON Lines as ../shared/eval's, comma separated): import, review the least confident fifth through the write API, regeocode, score the rest")
	if err := fl.Parse(args); err != nil {
		return c, err
	}
	if *scenarios != "" {
		c.scenarios = strings.Split(*scenarios, ",")
	}
	if c.stallURL != "" {
		c.stall = *stallFor
		return c, nil
	}
	if *loop != "" {
		c.reviewLoop = strings.Split(*loop, ",")
	}
	if c.syriamap == "" {
		return c, errors.New("--syriamap is required (go build -o DIR/syriamap ./cmd/syriamap)")
	}
	// The peer runs in its own folder: a relative path (the Makefile's
	// ../shared/…) would not find it from there.
	if c.peer != "" {
		abs, err := filepath.Abs(c.peer)
		if err != nil {
			return c, fmt.Errorf("--peer: %w", err)
		}
		c.peer = abs
	}
	var err error
	if c.sizes, err = parseSizes("--sizes", *sizes); err != nil {
		return c, err
	}
	if c.coldSizes, err = parseSizes("--cold-sizes", *coldSizes); err != nil {
		return c, err
	}
	c.benchtime, c.warmup, c.windows, c.fullReps, c.timelineReps = "2s", 5, 200, 3, 10
	c.load, c.loads, c.steps, c.stall = 10*time.Second, 3, 24, 10*time.Second
	if c.quick {
		c.benchtime, c.windows, c.timelineReps = "1s", 100, 5
		c.load, c.loads, c.steps, c.stall = 4*time.Second, 3, 12, 5*time.Second
	}
	for _, n := range c.sizes {
		if !c.quick || n < 1_000_000 {
			c.run = append(c.run, n)
		}
	}
	if c.quick {
		c.coldSizes = slices.DeleteFunc(c.coldSizes, func(n int) bool { return n > 100_000 })
	}
	return c, nil
}

// parseSizes reads a comma-separated list of archive sizes.
func parseSizes(flagName, list string) ([]int, error) {
	var out []int
	for _, s := range strings.Split(list, ",") {
		if strings.TrimSpace(s) == "" {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("%s: %q is not a positive number", flagName, s)
		}
		out = append(out, n)
	}
	return out, nil
}

// columns are the table's sizes: the full ones and the cold ones, in order.
func (c config) columns() []int {
	all := slices.Concat(c.sizes, c.coldSizes)
	slices.Sort(all)
	return slices.Compact(all)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg, err := parseConfig(args, stderr)
	if err != nil {
		return err
	}
	if len(cfg.reviewLoop) > 0 {
		if err := os.MkdirAll(cfg.dir, 0o755); err != nil {
			return err
		}
		_, _, err := runReviewLoop(ctx, cfg.syriamap, cfg.dir, cfg.reviewLoop, stdout)
		return err
	}
	if cfg.copyPhotos > 0 {
		if err := os.MkdirAll(cfg.dir, 0o755); err != nil {
			return err
		}
		return runCopy(ctx, cfg, cfg.copyPhotos, cfg.copyServer, stdout, func(format string, args ...any) { fmt.Fprintf(stderr, format+"\n", args...) })
	}
	if cfg.images > 0 {
		if err := os.MkdirAll(cfg.dir, 0o755); err != nil {
			return err
		}
		return runImages(ctx, cfg.syriamap, cfg.dir, cfg.images, stdout, stderr)
	}
	if cfg.peer != "" {
		if err := os.MkdirAll(cfg.dir, 0o755); err != nil {
			return err
		}
		return runPeer(ctx, cfg, stdout, stderr)
	}
	if cfg.engines > 0 {
		if err := os.MkdirAll(cfg.dir, 0o755); err != nil {
			return err
		}
		return runEngines(ctx, cfg, cfg.engines, stdout, stderr)
	}
	if cfg.reliability > 0 {
		if err := os.MkdirAll(cfg.dir, 0o755); err != nil {
			return err
		}
		return runReliability(ctx, cfg, cfg.reliability, stdout, func(format string, args ...any) { fmt.Fprintf(stderr, format+"\n", args...) })
	}
	if cfg.stallURL != "" {
		r, err := runStall(ctx, strings.TrimRight(cfg.stallURL, "/"), cfg.stall, cfg.stallSlow, cfg.stallHeavy, cfg.stallSearch)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, r)
		return nil
	}
	if err := os.MkdirAll(cfg.dir, 0o755); err != nil {
		return err
	}
	started := time.Now()
	res := newResults()
	progress := func(format string, a ...any) {
		fmt.Fprintf(stderr, "[%5.1fs] %s\n", time.Since(started).Seconds(), fmt.Sprintf(format, a...))
	}

	progress("geocoder: Go benchmark on one core (%s)", cfg.benchtime)
	if cps, err := runGeocodeBenchmark(ctx, cfg.goCmd, cfg.benchtime); err != nil {
		res.Fail("geocode.", 0, err)
	} else {
		res.Set("geocode.captions_per_s_core", 0, cps)
	}
	for _, size := range cfg.columns() {
		switch {
		case slices.Contains(cfg.run, size):
			if err := measureSize(ctx, cfg, size, res, progress); err != nil {
				res.Fail("", size, err) // no archive or no server: nothing at this size
			}
		case slices.Contains(cfg.coldSizes, size):
			res.SkipPrefix("", size, "only the cold rows at this size")
			if err := measureCold(ctx, cfg, size, res, progress); err != nil {
				res.Fail("cold.", size, err)
			}
		default:
			res.SkipPrefix("", size, "not run (QUICK)")
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	rep := newReport(cfg, res)
	if err := rep.WriteTable(stdout); err != nil {
		return err
	}
	if err := writeJSON(cfg.out, rep); err != nil {
		return err
	}
	progress("wrote %s", cfg.out)
	for _, err := range res.failures {
		fmt.Fprintln(stderr, "failed:", err)
	}
	if n := len(res.failures); n > 0 {
		return fmt.Errorf("%d measurements failed (the table says which)", n)
	}
	return nil
}

// freshArchive generates size captions and imports them into a new
// archive in the bench folder; it returns the archive's path and how long
// the import took.
func freshArchive(ctx context.Context, cfg config, size int, progress func(string, ...any)) (db string, took time.Duration, err error) {
	name := sizeName(size)
	captions := filepath.Join(cfg.dir, "captions-"+name+".txt")
	db = filepath.Join(cfg.dir, "archive-"+name+".db")
	progress("%s: generating captions", name)
	if err := generate(ctx, cfg.syriamap, size, captions); err != nil {
		return "", 0, err
	}
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if err := os.Remove(db + suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			return "", 0, err
		}
	}
	progress("%s: importing into a fresh archive", name)
	start := time.Now()
	if out, err := exec.CommandContext(ctx, cfg.syriamap, "import", "--db", db, captions).CombinedOutput(); err != nil {
		return "", 0, commandError("syriamap import", err, out)
	}
	return db, time.Since(start), nil
}

// measureSize generates, imports, serves and measures one archive.
func measureSize(ctx context.Context, cfg config, size int, res *Results, progress func(string, ...any)) error {
	name := sizeName(size)
	db, took, err := freshArchive(ctx, cfg, size, progress)
	if err != nil {
		return err
	}
	res.Set("import.seconds", size, took.Seconds())
	res.Set("import.captions_per_s", size, float64(size)/took.Seconds())
	var onDisk int64
	for _, suffix := range []string{"", "-wal"} {
		if fi, err := os.Stat(db + suffix); err == nil {
			onDisk += fi.Size()
		}
	}
	res.Set("import.db_mb", size, float64(onDisk)/1e6)

	srv, err := startServer(ctx, cfg.syriamap, db)
	if err != nil {
		return err
	}
	defer srv.close()
	progress("%s: API at %s", name, srv.url)
	if err := measureAPI(ctx, newClient(srv.url), cfg, size, res); err != nil {
		res.Fail("api.", size, err)
	}

	progress("%s: wrk for %s", name, cfg.load)
	switch load, err := runLoad(ctx, srv.url, cfg.load, cfg.dir); {
	case errors.Is(err, errNoWrk):
		res.SkipPrefix("load.", size, err.Error())
	case err != nil:
		res.Fail("load.", size, err)
	default:
		res.Set("load.rps", size, load.rps)
		res.Set("load.p99_ms", size, load.p99ms)
		res.Set("load.errors", size, float64(load.errors))
	}

	progress("%s: explorer in headless Chromium", name)
	br, err := runBrowser(ctx, srv.url, cfg.loads, cfg.steps)
	switch {
	case err != nil && errors.Is(err, headless.ErrNotInstalled):
		res.SkipPrefix("browser.", size, err.Error())
	case err != nil:
		res.Fail("browser.", size, err)
	default:
		res.Set("browser.first_clusters_ms", size, br.firstMS)
		res.Set("browser.step_p50_ms", size, quantile(br.stepsMS, 0.5))
		res.Set("browser.step_p99_ms", size, quantile(br.stepsMS, 0.99))
		mode := "clustered in the page"
		if br.serverOn {
			mode = "clustered by the server"
		}
		res.Note(fmt.Sprintf("browser at %s: %d timeline steps %s; the page then showed %q", name, len(br.stepsMS), mode, br.shown))
	}

	progress("%s: a %d-step story in headless Chromium", name, storySteps)
	switch took, err := measureStory(ctx, cfg.syriamap, db, srv.url); {
	case err != nil && errors.Is(err, headless.ErrNotInstalled):
		res.SkipPrefix("story.", size, err.Error())
	case err != nil:
		res.Fail("story.", size, err)
	default:
		res.Set("story.step_p50_ms", size, quantile(took, 0.5))
		res.Set("story.step_p99_ms", size, quantile(took, 0.99))
	}

	// The response cache answers the windows asked again (a random month
	// and box repeats): the share of answers it gave says how much of the
	// rows above it stands for.
	if hits, misses := cacheCounts(ctx, srv.url); hits+misses > 0 {
		res.Set("cache.hit_pct", size, 100*float64(hits)/float64(hits+misses))
	}

	if mem, err := srv.memory(); err != nil {
		res.SkipPrefix("memory.", size, err.Error())
	} else {
		res.Set("memory.peak_rss_mib", size, mem.peakRSS)
		res.Set("memory.peak_pss_mib", size, mem.peakPSS)
		res.Set("memory.peak_private_mib", size, mem.peakPrivate)
	}
	progress("%s: the live explorer in headless Chromium, cold each time", name)
	warmUp(ctx, srv.url+coldView)
	live, err := coldFirstMarkers(ctx, srv.url+coldView, cfg.loads)
	switch {
	case errors.Is(err, headless.ErrNotInstalled):
		res.SkipPrefix("cold.live", size, err.Error())
	case err != nil:
		res.Fail("cold.live", size, err)
	default:
		res.Set("cold.live_first_markers_ms", size, live)
	}

	// Last, as it is abuse rather than use: the memory figures above are
	// of use.
	progress("%s: stall: 8 slow readers and 8 heavy searches for %s", name, cfg.stall)
	if st, err := runStall(ctx, srv.url, cfg.stall, 8, 8, ""); err != nil {
		res.Fail("stall.", size, err)
	} else {
		res.Set("stall.healthz_p99_ms", size, quantile(st.healthzMS, 0.99))
		res.Set("stall.window_p99_ms", size, quantile(st.windowMS, 0.99))
		res.Set("stall.probe_errors", size, float64(st.probeErrors))
		peak := ""
		if mem, err := srv.memory(); err == nil {
			peak = fmt.Sprintf("; server peak private memory %.0f MiB", mem.peakPrivate)
		}
		res.Note(fmt.Sprintf("stall at %s: %s%s", name, st, peak))
	}

	// The figures stand; a server that would not stop cleanly still fails
	// the run.
	if err := srv.close(); err != nil {
		res.Failed(fmt.Errorf("%s: syriamap serve: %w: %s", name, err, srv.logs))
	}

	// The archive published as a static site, and read from a file server.
	switch pub, err := measurePublish(ctx, cfg, size, db, progress); {
	case err != nil:
		res.Fail("publish.", size, err)
		res.Fail("cold.published", size, err)
	default:
		res.Set("publish.seconds", size, pub.seconds)
		res.Set("publish.mb", size, pub.mb)
		res.Set("publish.size_ratio", size, pub.mb*1e6/float64(onDisk))
		if pub.readerBrowser {
			res.Set("cold.published_first_markers_ms", size, pub.firstMS)
			res.Set("cold.published_city_view_kb", size, pub.cityKB)
			setNoRanges(res, size, pub)
		} else {
			res.SkipPrefix("cold.published", size, headless.ErrNotInstalled.Error())
		}
	}
	return nil
}

// generate writes n synthetic captions (seed 1: the same every run).
func generate(ctx context.Context, bin string, n int, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, bin, "gen", "--n", strconv.Itoa(n), "--seed", "1")
	cmd.Stdout = f
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		f.Close()
		return commandError("syriamap gen", err, []byte(stderr.String()))
	}
	return f.Close()
}

func newReport(cfg config, res *Results) *Report {
	return &Report{
		Date:       time.Now().UTC().Format("2006-01-02 15:04 UTC"),
		Commit:     gitCommit(),
		CPU:        cpuModel(),
		Cores:      runtime.NumCPU(),
		GOMAXPROCS: runtime.GOMAXPROCS(0),
		OS:         runtime.GOOS + "/" + runtime.GOARCH,
		Go:         runtime.Version(),
		Quick:      cfg.quick,
		Sizes:      cfg.columns(),
		Rows:       res.rows(cfg.columns()),
		Notes:      res.notes,
	}
}

// writeJSON writes the report to path through a temporary file, so a
// failed run never leaves half a results file.
func writeJSON(path string, rep *Report) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // targets read "< 20", not "\u003c 20"
	enc.SetIndent("", "  ")
	if err := enc.Encode(rep); err != nil {
		return err
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b.Bytes(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

func gitCommit() string {
	out, err := exec.Command("git", "describe", "--always", "--dirty").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		if name, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(name) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// commandError says which command failed, how, and what it printed.
func commandError(name string, err error, out []byte) error {
	if s := strings.TrimSpace(string(out)); s != "" {
		return fmt.Errorf("%s: %w: %s", name, err, s)
	}
	return fmt.Errorf("%s: %w", name, err)
}

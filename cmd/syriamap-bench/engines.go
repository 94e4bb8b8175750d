package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/syriamap/syriamap/internal/pgtest"
)

// The engines comparison (`make bench-engines`, issue 71): one archive of
// generated photos, on SQLite and moved with `syriamap copy` to a private
// PostgreSQL cluster and back, served from each engine by its own
// `syriamap serve` and measured in the same minutes, alternately: the
// repeated month + city window (the memory index serves both), and the
// cold window, the first answer after a write.

// enginesDB is the database the comparison copies the archive into.
const enginesDB = "engines"

// engineRow is one measured figure of both servers.
type engineRow struct {
	name         string
	lite, pg     []float64
	unit, target string
	// ratio says how PostgreSQL's figure is read against SQLite's: its
	// share of it (pg/lite) or how many times it is (the same, for a
	// latency).
	ratio string
}

// runEngines measures an archive of size photos on both engines.
func runEngines(ctx context.Context, cfg config, size int, stdout, stderr io.Writer) error {
	started := time.Now()
	progress := func(format string, a ...any) {
		fmt.Fprintf(stderr, "[%5.1fs] %s\n", time.Since(started).Seconds(), fmt.Sprintf(format, a...))
	}
	name := sizeName(size)
	lite, err := peerArchive(ctx, cfg, size, progress)
	if err != nil {
		return err
	}
	bin, err := pgtest.Bin()
	if err != nil {
		return err
	}
	work := filepath.Join(cfg.dir, "engines-"+name)
	if err := os.MkdirAll(work, 0o755); err != nil {
		return err
	}
	pg, err := startPostgres(ctx, bin, work, progress)
	if err != nil {
		return err
	}
	defer pg.stop()
	if out, err := pg.asPostgres(ctx, "createdb", "-h", "127.0.0.1", "-p", fmt.Sprint(peerPort), "-U", "postgres", enginesDB).CombinedOutput(); err != nil {
		return commandError("createdb", err, out)
	}
	dsn := fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s", peerPort, enginesDB)
	originals := filepath.Join(work, "originals")
	if err := os.MkdirAll(originals, 0o755); err != nil {
		return err
	}

	rows, err := enginesCopy(ctx, cfg, lite, dsn, work, originals, progress)
	if err != nil {
		return err
	}
	liteSrv, err := startServer(ctx, cfg.syriamap, lite)
	if err != nil {
		return err
	}
	defer liteSrv.close()
	pgSrv, err := startServer(ctx, cfg.syriamap, dsn, "--originals", originals)
	if err != nil {
		return err
	}
	defer pgSrv.close()
	liteSrv.waitIndex(ctx)
	pgSrv.waitIndex(ctx)

	windows, err := enginesWindows(ctx, cfg, name, liteSrv.url, pgSrv.url, work, pg, progress)
	rows = append(rows, windows...)
	if err != nil {
		writeEnginesTable(stdout, size, rows)
		return err
	}
	cold, err := enginesCold(ctx, cfg, name, map[string]string{"lite": lite, "pg": dsn}, map[string]string{"lite": liteSrv.url, "pg": pgSrv.url}, progress)
	rows = append(rows, cold)
	writeEnginesTable(stdout, size, rows)
	return err
}

// enginesCopy moves the archive to PostgreSQL and back with `syriamap
// copy` (copyThereAndBack), timing each way, and verifies both copies.
func enginesCopy(ctx context.Context, cfg config, lite, dsn, work, originals string, progress func(string, ...any)) ([]engineRow, error) {
	hops, err := copyThereAndBack(ctx, cfg.syriamap, lite, dsn, filepath.Join(work, "back.db"), originals, progress)
	if err != nil {
		return nil, err
	}
	var rows []engineRow
	for _, h := range hops {
		rows = append(rows, engineRow{name: "syriamap copy to " + engineOf(h.to) + ", verified, the original's custody head", unit: "s",
			lite: []float64{h.copied.Seconds()}})
	}
	return rows, nil
}

// enginesWindows measures both servers with wrk on the repeated month +
// city window and on random ones, twice each, alternating.
func enginesWindows(ctx context.Context, cfg config, name, lite, pg, work string, cluster *postgres, progress func(string, ...any)) ([]engineRow, error) {
	secs := 15
	if cfg.quick {
		secs = 6
	}
	var rows []engineRow
	for _, q := range []struct{ query, label, target string }{
		{"repeat", "the repeated month + city window: req/s", "≥ 90 %"},
		{"city", "month + city box, each new: req/s", ""},
	} {
		rps := engineRow{name: q.label, unit: "req/s", target: q.target, ratio: "share"}
		p99 := engineRow{name: strings.Replace(q.label, "req/s", "p99", 1), unit: "ms", ratio: "times"}
		for round := range 2 {
			for _, who := range []string{"lite", "pg"} {
				base := map[string]string{"lite": lite, "pg": pg}[who]
				progress("%s: wrk %s on %s, round %d (%d s)", name, q.query, who, round+1, secs)
				r, err := peerLoad(ctx, base, "syriamap", q.query, secs, work)
				if err != nil {
					return rows, err
				}
				if r.errors > 0 {
					return rows, fmt.Errorf("%s on %s: %d errors", q.query, who, r.errors)
				}
				cluster.settle(ctx)
				if who == "lite" {
					rps.lite, p99.lite = append(rps.lite, r.rps), append(p99.lite, r.p99ms)
				} else {
					rps.pg, p99.pg = append(rps.pg, r.rps), append(p99.pg, r.p99ms)
				}
			}
		}
		rows = append(rows, rps, p99)
	}
	return rows, nil
}

// enginesCold times the first answer to the repeated window after a
// write (a photo moved with `syriamap set-place` by another process), on
// each engine, ten times: the server sees the archive's new version,
// and its caches and memory index must follow. The write's process is
// not timed; the answers before the server has seen the write are 304s
// to the window's old ETag.
func enginesCold(ctx context.Context, cfg config, name string, dbs, urls map[string]string, progress func(string, ...any)) (engineRow, error) {
	row := engineRow{name: "cold window, the first answer after a write: median", unit: "ms", target: "≤ 2×", ratio: "times"}
	id, err := windowPhotoID(ctx, urls["lite"]+repeatedWindow)
	if err != nil {
		return row, err
	}
	reps := 10
	if cfg.quick {
		reps = 4
	}
	for i := range reps {
		for _, who := range []string{"lite", "pg"} {
			progress("%s: cold window %d on %s", name, i+1, who)
			ms, err := coldAfterWrite(ctx, cfg.syriamap, dbs[who], urls[who], id, i)
			if err != nil {
				return row, fmt.Errorf("cold window on %s: %w", who, err)
			}
			if who == "lite" {
				row.lite = append(row.lite, ms)
			} else {
				row.pg = append(row.pg, ms)
			}
		}
	}
	return row, nil
}

var windowIDRe = regexp.MustCompile(`"id":"([0-9a-f]{16})"`)

// windowPhotoID is the first photo of the window at u.
func windowPhotoID(ctx context.Context, u string) (string, error) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	res, err := http.DefaultClient.Do(req) // read unzipped
	if err != nil {
		return "", err
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		return "", err
	}
	m := windowIDRe.FindSubmatch(body)
	if m == nil {
		return "", fmt.Errorf("no photo in %s", u)
	}
	return string(m[1]), nil
}

// coldAfterWrite moves photo id a little (to one of two points, by i),
// then asks the repeated window until its ETag changes, and returns how
// long that first new answer took, in ms.
func coldAfterWrite(ctx context.Context, bin, db, base, id string, i int) (float64, error) {
	etag, err := windowETag(ctx, base)
	if err != nil {
		return 0, err
	}
	point := []string{"37.1500,36.2000", "37.1510,36.2010"}[i%2]
	if out, err := exec.CommandContext(ctx, bin, "set-place", "--db", db, "--point", point, id).CombinedOutput(); err != nil {
		return 0, commandError("syriamap set-place", err, out)
	}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+repeatedWindow, nil)
		req.Header.Set("If-None-Match", etag)
		req.Header.Set("Accept-Encoding", "gzip")
		start := time.Now()
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, err
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		took := time.Since(start)
		if res.StatusCode == http.StatusOK {
			return ms(took), nil
		}
		if res.StatusCode != http.StatusNotModified {
			return 0, fmt.Errorf("the window answered %s", res.Status)
		}
		time.Sleep(20 * time.Millisecond) // polling a server for a state
	}
	return 0, errors.New("the server did not see the write in 30 s")
}

func windowETag(ctx context.Context, base string) (string, error) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+repeatedWindow, nil)
	req.Header.Set("Accept-Encoding", "gzip")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.Header.Get("ETag") == "" {
		return "", errors.New("the window has no ETag")
	}
	return res.Header.Get("ETag"), nil
}

// writeEnginesTable prints the comparison: each figure's median on each
// engine, PostgreSQL's against SQLite's, and the target.
func writeEnginesTable(w io.Writer, size int, rows []engineRow) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "engines, %s photos\tSQLite\tPostgreSQL\tPostgreSQL / SQLite\ttarget\n", sizeName(size))
	for _, r := range rows {
		lite, pg := median(r.lite), median(r.pg)
		cell := func(v float64, vs []float64) string {
			if len(vs) == 0 {
				return ""
			}
			return fmt.Sprintf("%.1f %s", v, r.unit)
		}
		ratio := ""
		switch {
		case len(r.pg) == 0 || lite == 0:
		case r.ratio == "share":
			ratio = fmt.Sprintf("%.0f %%", 100*pg/lite)
		case r.ratio == "times":
			ratio = fmt.Sprintf("%.2f×", pg/lite)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.name, cell(lite, r.lite), cell(pg, r.pg), ratio, r.target)
	}
	tw.Flush()
}

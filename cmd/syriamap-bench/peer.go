package main

import (
	"bytes"
	"compress/gzip"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"text/template"
	"time"
)

// The peer comparison (`make bench PEER=1`): syriamap and pg_featureserv
// (../shared/peers: the reference OGC API – Features server over
// PostgreSQL/PostGIS) serve the same generated photos on the same machine
// and are measured in the same minutes, alternately, with the same
// windows. PostgreSQL and PostGIS come from Debian (installed when
// missing, as root); the cluster is private to the run, on port 54329 as
// the peer's pgfs.toml expects.

//go:embed peer.lua
var peerLua string

var peerScript = template.Must(template.New("peer.lua").Parse(peerLua))

// peerBoxes are the city boxes of the peer's own wrk script (W,S,E,N):
// Aleppo, Damascus, Homs, Idlib.
var peerBoxes = []string{"37.05,36.10,37.25,36.30", "36.20,33.40,36.45,33.60", "36.60,34.65,36.80,34.80", "36.55,35.85,36.75,36.00"}

// peerShiftM is how far, at most, a box is moved in each direction.
const peerShiftM = 500

const (
	peerPort = 54329
	peerURL  = "http://127.0.0.1:9000"
)

// peerRun is one measured figure of both servers.
type peerRow struct {
	name           string
	ours, theirs   []float64 // one per round
	unit           string
	higherIsBetter bool
	target         string
	// limit is the static limit's figure (limit.go), one per round, where
	// it was measured, and limitTarget syriamap's share of it aimed at.
	limit       []float64
	limitTarget string
}

// runPeer measures syriamap against pg_featureserv at each size.
func runPeer(ctx context.Context, cfg config, stdout, stderr io.Writer) error {
	started := time.Now()
	progress := func(format string, a ...any) {
		fmt.Fprintf(stderr, "[%5.1fs] %s\n", time.Since(started).Seconds(), fmt.Sprintf(format, a...))
	}
	pgBin, err := postgresBin(progress)
	if err != nil {
		return err
	}
	var failed []error
	for _, size := range cfg.run {
		rows, err := peerSize(ctx, cfg, size, pgBin, progress)
		if err != nil {
			failed = append(failed, fmt.Errorf("%s: %w", sizeName(size), err))
		}
		if len(rows) > 0 {
			writePeerTable(stdout, size, rows)
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	if len(failed) > 0 {
		return errors.Join(failed...)
	}
	return nil
}

// postgresBin finds PostgreSQL's programs, installing PostgreSQL and
// PostGIS from Debian when they are missing and the bench runs as root.
func postgresBin(progress func(string, ...any)) (string, error) {
	find := func() string {
		dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
		sort.Strings(dirs)
		for i := len(dirs) - 1; i >= 0; i-- {
			version := filepath.Base(filepath.Dir(dirs[i]))
			if _, err := os.Stat(filepath.Join("/usr/share/postgresql", version, "extension", "postgis.control")); err == nil {
				return dirs[i]
			}
		}
		return ""
	}
	if bin := find(); bin != "" {
		return bin, nil
	}
	if os.Geteuid() != 0 {
		return "", errors.New("PostgreSQL with PostGIS is not installed: apt-get install postgresql postgresql-15-postgis-3")
	}
	progress("installing PostgreSQL and PostGIS from Debian")
	for _, args := range [][]string{{"update", "-qq"}, {"install", "-y", "-qq", "--no-install-recommends", "postgresql", "postgresql-15-postgis-3"}} {
		cmd := exec.Command("apt-get", args...)
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", commandError("apt-get", err, out)
		}
	}
	if bin := find(); bin != "" {
		return bin, nil
	}
	return "", errors.New("PostgreSQL was installed but its programs or PostGIS are not where Debian puts them")
}

// peerArchive returns the archive of size generated photos for the
// comparison, generating and importing it unless it is there already.
func peerArchive(ctx context.Context, cfg config, size int, progress func(string, ...any)) (string, error) {
	name := sizeName(size)
	db := filepath.Join(cfg.dir, "archive-"+name+".db")
	if !archiveHas(db, size) {
		captions := filepath.Join(cfg.dir, "captions-"+name+".txt")
		progress("%s: generating and importing captions", name)
		if err := generate(ctx, cfg.syriamap, size, captions); err != nil {
			return "", err
		}
		for _, suffix := range []string{"", "-wal", "-shm"} {
			os.Remove(db + suffix)
		}
		if out, err := exec.CommandContext(ctx, cfg.syriamap, "import", "--db", db, captions).CombinedOutput(); err != nil {
			return "", commandError("syriamap import", err, out)
		}
	}
	return db, nil
}

// repeatedWindow is the window peer.lua's "repeat" asks every time
// (there with the box's numbers in another spelling, which the server's
// normal form of a query takes for the same).
var repeatedWindow = "/api/photos.geojson?from=2016-06&to=2016-06&bbox=" + peerBoxes[0]

// peerWindows measures both servers on the windows with wrk, twice each,
// alternating, and the static limit (limit.go) beside them on the
// repeated and the jittered city windows.
func peerWindows(ctx context.Context, cfg config, name, ours, work string, pg *postgres, progress func(string, ...any)) ([]peerRow, error) {
	var rows []peerRow
	secs := 20
	if cfg.quick {
		secs = 8
	}
	body, contentType, encoding, err := rawBody(ctx, ours+repeatedWindow)
	if err != nil {
		return nil, fmt.Errorf("the repeated window: %w", err)
	}
	limit, err := startLimit(body, contentType, encoding)
	if err != nil {
		return nil, err
	}
	defer limit.close()
	for _, q := range []struct{ query, label, target, limitTarget string }{
		{"repeat", "one window, asked again and again: req/s", "", "≥ 50 %"},
		{"city", "month + city box: req/s", "≥ 10×", "≥ 25 %"},
		{"country", "month, country-wide: req/s", "≥ 4×", ""},
	} {
		rps := peerRow{name: q.label, unit: "req/s", higherIsBetter: true, target: q.target, limitTarget: q.limitTarget}
		p50 := peerRow{name: strings.Replace(q.label, "req/s", "p50", 1), unit: "ms"}
		p99 := peerRow{name: strings.Replace(q.label, "req/s", "p99", 1), unit: "ms"}
		errs := peerRow{name: strings.Replace(q.label, "req/s", "errors", 1), unit: ""}
		// Bytes on the wire per response (gzip asked for, headers included).
		wire := peerRow{name: strings.Replace(q.label, "req/s", "bytes on the wire per response", 1), unit: "KB"}
		hits := peerRow{name: strings.Replace(q.label, "req/s", "answers from the response cache", 1), unit: "%"}
		if q.query == "country" {
			p99.target = "below the peer's"
		}
		who := []string{"syriamap", "peer"}
		if q.limitTarget != "" {
			who = append(who, "limit")
		}
		for round := 0; round < 2; round++ {
			for _, who := range who {
				base := map[string]string{"syriamap": ours, "peer": peerURL, "limit": limit.url}[who]
				progress("%s: wrk %s %s, round %d (%d s)", name, q.query, who, round+1, secs)
				h0, m0 := cacheCounts(ctx, ours)
				r, err := peerLoad(ctx, base, who, q.query, secs, work)
				if err != nil {
					return rows, err
				}
				// wrk leaves requests in flight when it stops; the peer's
				// queries then run on for seconds. The next measure waits
				// for them, so that neither server is measured beside them.
				pg.settle(ctx)
				switch who {
				case "limit":
					rps.limit = append(rps.limit, r.rps)
					continue
				case "syriamap":
					h1, m1 := cacheCounts(ctx, ours)
					hits.ours = append(hits.ours, 100*float64(h1-h0)/float64(max(1, h1-h0+m1-m0)))
				}
				for _, x := range []struct {
					row *peerRow
					v   float64
				}{{&rps, r.rps}, {&p50, r.p50ms}, {&p99, r.p99ms}, {&errs, float64(r.errors)}, {&wire, r.kbPer}} {
					if who == "syriamap" {
						x.row.ours = append(x.row.ours, x.v)
					} else {
						x.row.theirs = append(x.row.theirs, x.v)
					}
				}
			}
		}
		rows = append(rows, rps, p50, p99, errs, wire, hits)
	}
	return rows, nil
}

// peerBigResponse times the first and last byte of a 100,000-feature
// response from each server, three times.
func peerBigResponse(ctx context.Context, name string, size int, ours string, progress func(string, ...any)) ([]peerRow, error) {
	var rows []peerRow
	progress("%s: a 100,000-feature response, first and last byte", name)
	big := fmt.Sprintf("%dk features", min(size, 100000)/1000)
	first := peerRow{name: big + ": first byte", unit: "ms", target: "< 50 ms"}
	last := peerRow{name: big + ": last byte", unit: "ms", target: "≤ 0.3×"}
	wire := peerRow{name: big + ": bytes on the wire", unit: "MB"}
	urls := map[string]string{
		"syriamap": ours + "/api/photos.geojson?from=2012-01&to=2017-12&limit=100000",
		"peer":     peerURL + "/collections/public.photos/items.json?filter=" + url.QueryEscape("date BETWEEN '2012-01-01' AND '2017-12-31'") + "&limit=100000",
	}
	for round := 0; round < 3; round++ {
		for _, who := range []string{"syriamap", "peer"} {
			fb, lb, n, w, err := timeCurl(ctx, nil, urls[who])
			if err != nil {
				return rows, fmt.Errorf("%s: %w", who, err)
			}
			if n == 0 {
				return rows, fmt.Errorf("%s sent no feature", who)
			}
			if who == "syriamap" {
				first.ours, last.ours, wire.ours = append(first.ours, fb), append(last.ours, lb), append(wire.ours, float64(w)/1e6)
			} else {
				first.theirs, last.theirs, wire.theirs = append(first.theirs, fb), append(last.theirs, lb), append(wire.theirs, float64(w)/1e6)
			}
		}
	}
	rows = append(rows, first, last, wire)
	// The same over a 20 Mbit/s link, once each (it takes seconds).
	progress("%s: the same over a %s link (a network namespace and tc netem)", name, shapedRate)
	shaped := peerRow{name: big + ": last byte at 20 Mbit/s", unit: "ms", target: "≤ 0.5×"}
	link, err := newShapedLink(ctx)
	if err != nil {
		progress("%s: no shaped link: %v", name, err)
		return rows, nil
	}
	defer link.close(ctx)
	for _, who := range []string{"syriamap", "peer"} {
		u, err := link.via(urls[who])
		if err != nil {
			return rows, err
		}
		_, lb, n, _, err := timeCurl(ctx, link.curl(), u)
		if err != nil {
			return rows, fmt.Errorf("%s over the shaped link: %w", who, err)
		}
		if n == 0 {
			return rows, fmt.Errorf("%s sent no feature over the shaped link", who)
		}
		if who == "syriamap" {
			shaped.ours = append(shaped.ours, lb)
		} else {
			shaped.theirs = append(shaped.theirs, lb)
		}
	}
	return append(rows, shaped), nil
}

// peerOgr times ogr2ogr copying a box of photos to a GeoPackage from each
// server's OGC API, twice each, and checks both gave the same features.
func peerOgr(ctx context.Context, ogr, name, ours, work string, progress func(string, ...any)) (peerRow, error) {
	progress("%s: ogr2ogr to GeoPackage from each server's OGC items", name)
	gpkg := peerRow{name: "ogr2ogr to GeoPackage (Aleppo box)", unit: "s", target: "faster"}
	counts := map[string]int{}
	for round := 0; round < 2; round++ {
		for _, who := range []string{"syriamap", "peer"} {
			// Each server at its largest page: syriamap's is 10,000
			// (a larger limit is refused, and next links page on);
			// the peer's 200,000, since it gives no next link and
			// GDAL would stop after its first page.
			src, layer, page := "OAPIF:"+ours+"/ogc", "photos", "10000"
			if who == "peer" {
				src, layer, page = "OAPIF:"+peerURL, "public.photos", "200000"
			}
			out := filepath.Join(work, who+".gpkg")
			os.Remove(out)
			start := time.Now()
			cmd := exec.CommandContext(ctx, ogr, "-f", "GPKG", out, src, layer, "-oo", "PAGE_SIZE="+page,
				"-spat", "37.05", "36.10", "37.25", "36.30")
			if b, err := cmd.CombinedOutput(); err != nil {
				return gpkg, commandError("ogr2ogr from "+who, err, b)
			}
			s := time.Since(start).Seconds()
			counts[who] = gpkgCount(out)
			if who == "syriamap" {
				gpkg.ours = append(gpkg.ours, s)
			} else {
				gpkg.theirs = append(gpkg.theirs, s)
			}
		}
	}
	if counts["syriamap"] != counts["peer"] || counts["peer"] == 0 {
		return gpkg, fmt.Errorf("ogr2ogr copied %d features from syriamap and %d from the peer", counts["syriamap"], counts["peer"])
	}
	gpkg.name = fmt.Sprintf("ogr2ogr to GeoPackage (Aleppo box, %d features)", counts["peer"])
	return gpkg, nil
}

// peerSize imports size photos into syriamap, loads the same photos into
// PostgreSQL, and measures both servers.
func peerSize(ctx context.Context, cfg config, size int, pgBin string, progress func(string, ...any)) ([]peerRow, error) {
	name := sizeName(size)
	db, err := peerArchive(ctx, cfg, size, progress)
	if err != nil {
		return nil, err
	}
	srv, err := startServer(ctx, cfg.syriamap, db)
	if err != nil {
		return nil, err
	}
	defer srv.close()

	work := filepath.Join(cfg.dir, "peer-"+name)
	os.MkdirAll(work, 0o755)
	progress("%s: exporting the photos as CSV for PostgreSQL", name)
	header, err := download(ctx, srv.url+"/api/photos.csv", filepath.Join(work, "photos.csv"))
	if err != nil {
		return nil, err
	}
	pg, err := startPostgres(ctx, pgBin, work, progress)
	if err != nil {
		return nil, err
	}
	defer pg.stop()
	progress("%s: loading PostgreSQL (the peer's load.sql, with this CSV's columns)", name)
	if err := pg.load(ctx, work, header); err != nil {
		return nil, err
	}
	peer, err := startPeer(ctx, cfg.peer)
	if err != nil {
		return nil, err
	}
	defer peer.close()

	progress("%s: the same photos from both, on five windows", name)
	if err := sameIDs(ctx, srv.url); err != nil {
		return nil, err
	}
	rows, err := peerWindows(ctx, cfg, name, srv.url, work, pg, progress)
	if err != nil {
		return rows, err
	}

	bigRows, err := peerBigResponse(ctx, name, size, srv.url, progress)
	if err != nil {
		return rows, err
	}
	rows = append(rows, bigRows...)

	if ogr, err := exec.LookPath("ogr2ogr"); err == nil {
		row, err := peerOgr(ctx, ogr, name, srv.url, work, progress)
		if err != nil {
			return rows, err
		}
		rows = append(rows, row)
	}

	// Peak memory is taken with the response cache full, as a server
	// that has run a while has it.
	progress("%s: filling syriamap's response cache", name)
	held := fillCache(ctx, srv.url, 60<<20, 20_000)
	mem := peerRow{name: fmt.Sprintf("peak PSS (the response cache holding %.0f MB)", float64(held)/(1<<20)), unit: "MiB", target: "below"}
	if m, err := srv.memory(); err == nil {
		mem.ours = []float64{m.peakPSS}
	}
	mem.theirs = []float64{peer.peakPSS() + pg.pss()}
	rows = append(rows, mem)
	return rows, nil
}

// archiveHas reports whether the archive at path exists with n photos, so
// that a peer run reuses the main bench's archive.
func archiveHas(path string, n int) bool {
	if _, err := os.Stat(path); err != nil {
		return false
	}
	out, err := exec.Command("sqlite3", path, "SELECT count(*) FROM photos").Output()
	if err != nil {
		return false
	}
	got, _ := strconv.Atoi(strings.TrimSpace(string(out)))
	return got == n
}

// download saves url's body to path and returns its first line.
func download(ctx context.Context, u, path string) (string, error) {
	req, _ := http.NewRequestWithContext(ctx, "GET", u, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		return "", fmt.Errorf("GET %s: %s", u, resp.Status)
	}
	f, err := os.Create(path)
	if err != nil {
		return "", err
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		f.Close()
		return "", err
	}
	if err := f.Close(); err != nil {
		return "", err
	}
	b, _ := os.ReadFile(path)
	line, _, _ := bytes.Cut(b[:min(len(b), 4096)], []byte("\n"))
	return string(line), nil
}

// postgres is a private PostgreSQL cluster.
type postgres struct {
	bin, data string
	port      int
}

func startPostgres(ctx context.Context, bin, work string, progress func(string, ...any)) (*postgres, error) {
	return startPostgresOn(ctx, bin, work, peerPort, progress)
}

// startPostgresOn is startPostgres on port.
func startPostgresOn(ctx context.Context, bin, work string, port int, progress func(string, ...any)) (*postgres, error) {
	data := filepath.Join(work, "pgdata")
	pg := &postgres{bin: bin, data: data, port: port}
	pg.stop() // one a killed run left
	os.RemoveAll(data)
	if err := os.MkdirAll(data, 0o700); err != nil {
		return nil, err
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("no postgres user (Debian's postgresql package makes it): %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	os.Chown(data, uid, gid)
	os.Chmod(work, 0o755)
	progress("starting a private PostgreSQL on port %d", port)
	if out, err := pg.asPostgres(ctx, "initdb", "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8").CombinedOutput(); err != nil {
		return nil, commandError("initdb", err, out)
	}
	if err := pg.start(ctx); err != nil {
		return nil, err
	}
	return pg, nil
}

// start starts the cluster's server and returns once it takes
// connections.
func (pg *postgres) start(ctx context.Context) error {
	opts := fmt.Sprintf("-p %d -k /tmp -c listen_addresses=127.0.0.1 -c shared_buffers=1GB -c max_connections=100 -c fsync=off", pg.port)
	if out, err := pg.asPostgres(ctx, "pg_ctl", "-D", pg.data, "-o", opts, "-l", filepath.Join(pg.data, "log"), "-w", "start").CombinedOutput(); err != nil {
		return commandError("pg_ctl start", err, out)
	}
	return nil
}

// asPostgres runs one of PostgreSQL's programs as the postgres user (the
// server refuses to run as root).
func (pg *postgres) asPostgres(ctx context.Context, prog string, args ...string) *exec.Cmd {
	path := filepath.Join(pg.bin, prog)
	if os.Geteuid() == 0 {
		return exec.CommandContext(ctx, "runuser", append([]string{"-u", "postgres", "--", path}, args...)...)
	}
	return exec.CommandContext(ctx, path, args...)
}

func (pg *postgres) stop() {
	if _, err := os.Stat(filepath.Join(pg.data, "postmaster.pid")); err == nil {
		pg.asPostgres(context.Background(), "pg_ctl", "-D", pg.data, "-m", "fast", "-w", "stop").Run()
	}
}

// settle waits, up to a minute, until the cluster runs no query.
func (pg *postgres) settle(ctx context.Context) {
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		out, err := exec.CommandContext(ctx, filepath.Join(pg.bin, "psql"), "-h", "127.0.0.1", "-p", strconv.Itoa(peerPort), "-U", "postgres",
			"-d", "gis", "-Atc", "SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND pid <> pg_backend_pid()").Output()
		if err != nil || strings.TrimSpace(string(out)) == "0" {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// pss is the proportional memory of the cluster's processes, in MiB.
func (pg *postgres) pss() float64 {
	b, err := os.ReadFile(filepath.Join(pg.data, "postmaster.pid"))
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0]))
	var kib int64
	for _, p := range append([]int{pid}, children(pid)...) {
		if st, err := procStatus(p, "smaps_rollup"); err == nil {
			kib += st["Pss"]
		}
	}
	return float64(kib) / 1024
}

// children lists the processes whose parent is pid.
func children(pid int) []int {
	var out []int
	dirs, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, d := range dirs {
		b, err := os.ReadFile(d)
		if err != nil {
			continue
		}
		// pid (comm) state ppid …; comm may hold spaces.
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) > 1 && f[1] == strconv.Itoa(pid) {
			p, _ := strconv.Atoi(strings.Fields(s)[0])
			out = append(out, p)
		}
	}
	return out
}

// load runs the peer's load.sql on the exported CSV, its staging table
// given the CSV's own columns (syriamap's CSV has grown columns since the
// script was written; the table the peer serves is the same).
func (pg *postgres) load(ctx context.Context, work, header string) error {
	numeric := map[string]bool{"lon": true, "lat": true, "confidence": true, "gps_lon": true, "gps_lat": true}
	var cols []string
	for _, c := range strings.Split(strings.TrimSpace(header), ",") {
		typ := "text"
		switch {
		case numeric[c]:
			typ = "float8"
		case c == "date":
			typ = "date"
		}
		cols = append(cols, c+" "+typ)
	}
	sql := `CREATE DATABASE gis;
\c gis
CREATE EXTENSION postgis;
CREATE UNLOGGED TABLE staging(` + strings.Join(cols, ", ") + `);
\copy staging FROM 'photos.csv' WITH (FORMAT csv, HEADER true)
CREATE TABLE public.photos(id text primary key, date date, date_precision text, photographer text, agency text, place text, governorate text, confidence float8, caption text, geom geometry(Point,4326));
INSERT INTO public.photos SELECT id, date, date_precision, nullif(photographer,''), nullif(agency,''), nullif(place_name,''), nullif(governorate,''), confidence, caption, CASE WHEN lon IS NULL THEN NULL ELSE ST_SetSRID(ST_MakePoint(lon,lat),4326) END FROM staging;
CREATE INDEX photos_geom_gist ON public.photos USING gist(geom);
CREATE INDEX photos_date_btree ON public.photos(date);
DROP TABLE staging;
VACUUM ANALYZE public.photos;
`
	script := filepath.Join(work, "load.sql")
	if err := os.WriteFile(script, []byte(sql), 0o644); err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, filepath.Join(pg.bin, "psql"), "-v", "ON_ERROR_STOP=1", "-q", "-h", "127.0.0.1", "-p", strconv.Itoa(peerPort), "-U", "postgres", "-f", script)
	cmd.Dir = work
	if out, err := cmd.CombinedOutput(); err != nil {
		return commandError("psql (load)", err, out)
	}
	return nil
}

// peerServer is pg_featureserv, run from its folder (it reads assets/
// from the working directory).
type peerServer struct {
	cmd  *exec.Cmd
	peak int64 // KiB
	stop chan struct{}
	done chan struct{}
}

func startPeer(ctx context.Context, dir string) (*peerServer, error) {
	cmd := exec.Command(filepath.Join(dir, "pg_featureserv"), "--config", "pgfs.toml")
	cmd.Dir = dir
	var logs tailBuffer
	logs.max = 8 << 10
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start pg_featureserv: %w", err)
	}
	p := &peerServer{cmd: cmd, stop: make(chan struct{}), done: make(chan struct{})}
	deadline := time.Now().Add(time.Minute)
	for {
		resp, err := http.Get(peerURL + "/collections/public.photos.json")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				break
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			p.close()
			return nil, fmt.Errorf("pg_featureserv did not serve public.photos within a minute: %s", logs.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
	go func() { // sample its memory, as the bench does syriamap's
		defer close(p.done)
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				if st, err := procStatus(cmd.Process.Pid, "smaps_rollup"); err == nil && st["Pss"] > p.peak {
					p.peak = st["Pss"]
				}
			}
		}
	}()
	return p, nil
}

func (p *peerServer) peakPSS() float64 {
	return float64(p.peak) / 1024
}

func (p *peerServer) close() {
	select {
	case <-p.stop:
		return
	default:
	}
	close(p.stop)
	p.cmd.Process.Signal(syscall.SIGTERM)
	waited := make(chan struct{})
	go func() { p.cmd.Wait(); close(waited) }()
	select {
	case <-waited:
	case <-time.After(10 * time.Second):
		p.cmd.Process.Kill()
		<-waited
	}
}

// peerLoadResult is one wrk run of peer.lua.
type peerLoadResult struct {
	rps, p50ms, p99ms float64
	kbPer             float64 // KB read per response, headers included
	errors            int64
}

var peerWrkLine = regexp.MustCompile(`(?m)^peer-bench: requests (\d+), errors (\d+), p50_us (\d+), p99_us (\d+), bytes (\d+)`)

func peerLoad(ctx context.Context, base, target, query string, secs int, scratch string) (peerLoadResult, error) {
	wrk, err := exec.LookPath("wrk")
	if err != nil {
		return peerLoadResult{}, errNoWrk
	}
	var lua bytes.Buffer
	// A shift in degrees of latitude; at 33–36° N a degree of longitude
	// is 0.82 as long, so the box moves a little less east–west.
	if err := peerScript.Execute(&lua, map[string]any{"Boxes": peerBoxes, "ShiftM": peerShiftM, "ShiftDeg": float64(peerShiftM) / 111_000}); err != nil {
		return peerLoadResult{}, err
	}
	script := filepath.Join(scratch, "peer.lua")
	if err := os.WriteFile(script, lua.Bytes(), 0o644); err != nil {
		return peerLoadResult{}, err
	}
	out, err := exec.CommandContext(ctx, wrk, "-t2", "-c16", fmt.Sprintf("-d%ds", secs), "--timeout", "10s",
		"-s", script, base, "--", target, query).CombinedOutput()
	if err != nil {
		return peerLoadResult{}, commandError("wrk", err, out)
	}
	m := peerWrkLine.FindSubmatch(out)
	if m == nil {
		return peerLoadResult{}, fmt.Errorf("wrk printed no figures: %s", out)
	}
	n, _ := strconv.ParseFloat(string(m[1]), 64)
	e, _ := strconv.ParseInt(string(m[2]), 10, 64)
	p50, _ := strconv.ParseFloat(string(m[3]), 64)
	p99, _ := strconv.ParseFloat(string(m[4]), 64)
	read, _ := strconv.ParseFloat(string(m[5]), 64)
	r := peerLoadResult{rps: n / float64(secs), p50ms: p50 / 1000, p99ms: p99 / 1000, errors: e}
	if n > 0 {
		r.kbPer = read / n / 1000
	}
	return r, nil
}

// timeCurl fetches u with gzip, as a client would, and returns the time
// to the first and the last byte, in ms, the features it held and the
// bytes on the wire. curl does the fetching where it is installed: Go's
// HTTP client reads a 50 MB chunked body ten times slower than curl here,
// which would time the client rather than the server. through, when
// given, is the command that runs curl (on a shaped link).
func timeCurl(ctx context.Context, through []string, u string) (first, last float64, n, wire int, err error) {
	if curl, err := exec.LookPath("curl"); err == nil {
		if through == nil {
			through = []string{curl}
		}
		body, err := os.CreateTemp("", "syriamap-bench-*.gz")
		if err != nil {
			return 0, 0, 0, 0, err
		}
		defer os.Remove(body.Name())
		body.Close()
		args := append(append([]string(nil), through[1:]...), "-sS", "-o", body.Name(), "-H", "Accept-Encoding: gzip", "-w", "%{http_code} %{time_starttransfer} %{time_total}", u)
		out, err := exec.CommandContext(ctx, through[0], args...).Output()
		if err != nil {
			return 0, 0, 0, 0, fmt.Errorf("curl %s: %w", u, err)
		}
		var code int
		var fb, lb float64
		if _, err := fmt.Sscanf(string(out), "%d %g %g", &code, &fb, &lb); err != nil || code != 200 {
			return 0, 0, 0, 0, fmt.Errorf("curl %s: %q", u, out)
		}
		raw, err := os.ReadFile(body.Name())
		if err != nil {
			return 0, 0, 0, 0, err
		}
		wire = len(raw)
		if zr, err := gzip.NewReader(bytes.NewReader(raw)); err == nil {
			if raw, err = io.ReadAll(zr); err != nil {
				return 0, 0, 0, 0, err
			}
		}
		return fb * 1000, lb * 1000, bytes.Count(raw, []byte(`"type":"Feature"`)), wire, nil
	}
	if through != nil {
		return 0, 0, 0, 0, errors.New("the shaped link needs curl")
	}
	req, _ := http.NewRequestWithContext(ctx, "GET", u, nil)
	req.Header.Set("Accept-Encoding", "gzip")
	tr := &http.Transport{DisableCompression: true}
	defer tr.CloseIdleConnections()
	start := time.Now()
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		return 0, 0, 0, 0, err
	}
	defer resp.Body.Close()
	buf := make([]byte, 1)
	if _, err := io.ReadFull(resp.Body, buf); err != nil {
		return 0, 0, 0, 0, err
	}
	first = ms(time.Since(start))
	rest, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, 0, 0, 0, err
	}
	last = ms(time.Since(start))
	body := append(buf, rest...)
	wire = len(body)
	if resp.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			return 0, 0, 0, 0, err
		}
		if body, err = io.ReadAll(zr); err != nil {
			return 0, 0, 0, 0, err
		}
	}
	if resp.StatusCode != 200 {
		return 0, 0, 0, 0, fmt.Errorf("GET %s: %s: %.200s", u, resp.Status, body)
	}
	return first, last, bytes.Count(body, []byte(`"type":"Feature"`)), wire, nil
}

// sameIDs checks, on five windows (a month and a city box each), that
// both servers select the same photos: syriamap's OGC items with the
// peer's own CQL filter, and syriamap's map endpoint (whose from/to
// selects by the period a date covers) for the day- and month-dated
// photos, which both read alike.
func sameIDs(ctx context.Context, syriamap string) error {
	windows := []struct{ month, box string }{
		{"2013-03", peerBoxes[0]}, {"2014-07", peerBoxes[1]}, {"2015-11", peerBoxes[2]}, {"2016-02", peerBoxes[3]}, {"2016-12", peerBoxes[0]},
	}
	checked := 0
	for _, w := range windows {
		y, _ := strconv.Atoi(w.month[:4])
		m, _ := strconv.Atoi(w.month[5:])
		lastDay := time.Date(y, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day()
		cql := fmt.Sprintf("date BETWEEN '%s-01' AND '%s-%02d'", w.month, w.month, lastDay)
		theirs, err := featureIDs(ctx, peerURL+"/collections/public.photos/items.json?limit=200000&bbox="+w.box+"&filter="+url.QueryEscape(cql))
		if err != nil {
			return fmt.Errorf("peer: %w", err)
		}
		ours, err := featureIDs(ctx, syriamap+"/ogc/collections/photos/items?f=json&limit=10000&bbox="+w.box+"&filter="+url.QueryEscape(cql))
		if err != nil {
			return fmt.Errorf("syriamap OGC items: %w", err)
		}
		if !slices.Equal(ids(theirs, nil), ids(ours, nil)) {
			return fmt.Errorf("window %s %s: syriamap's OGC items give %d photos, pg_featureserv %d, not the same ones", w.month, w.box, len(ours), len(theirs))
		}
		mapped, err := featureIDs(ctx, syriamap+"/api/photos.geojson?from="+w.month+"&to="+w.month+"&bbox="+w.box)
		if err != nil {
			return fmt.Errorf("syriamap: %w", err)
		}
		dated := func(p string) bool { return p == "day" || p == "month" }
		if a, b := ids(mapped, dated), ids(theirs, dated); !slices.Equal(a, b) {
			return fmt.Errorf("window %s %s: syriamap's map endpoint gives %d day- and month-dated photos, pg_featureserv %d, not the same ones", w.month, w.box, len(a), len(b))
		}
		checked += len(ours)
	}
	if checked == 0 {
		return errors.New("the five windows select no photo: nothing was checked")
	}
	return nil
}

type idFeature struct {
	ID         any `json:"id"`
	Properties struct {
		DatePrecision string `json:"date_precision"`
	} `json:"properties"`
}

func featureIDs(ctx context.Context, u string) ([]idFeature, error) {
	req, _ := http.NewRequestWithContext(ctx, "GET", u, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		return nil, fmt.Errorf("GET %s: %s: %.300s", u, resp.Status, b)
	}
	var fc struct{ Features []idFeature }
	if err := json.NewDecoder(resp.Body).Decode(&fc); err != nil {
		return nil, err
	}
	return fc.Features, nil
}

// ids are the sorted ids of the features keep keeps (all for nil).
func ids(fs []idFeature, keep func(precision string) bool) []string {
	var out []string
	for _, f := range fs {
		if keep == nil || keep(f.Properties.DatePrecision) {
			out = append(out, fmt.Sprint(f.ID))
		}
	}
	sort.Strings(out)
	return out
}

// writePeerTable prints both servers' figures, each the median of its
// rounds, with the ratio (syriamap's advantage: > 1 is syriamap better).
func writePeerTable(w io.Writer, size int, rows []peerRow) {
	fmt.Fprintf(w, "\nsyriamap vs pg_featureserv 1.3.1 at %s photos (median of the rounds; every request a distinct window but in the first rows, which ask one window again and again; the static limit answers that window's bytes from memory)\n", sizeName(size))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "measure\tsyriamap\tpg_featureserv\tsyriamap's advantage\ttarget\tstatic limit\tsyriamap's share\ttarget\t")
	for _, r := range rows {
		a, b, l := median(r.ours), median(r.theirs), median(r.limit)
		ratio, share := "—", "—"
		if !math.IsNaN(a) && !math.IsNaN(b) && a > 0 && b > 0 && r.unit != "" {
			if r.higherIsBetter {
				ratio = fmt.Sprintf("%.2f×", a/b)
			} else {
				ratio = fmt.Sprintf("%.2f× (%.2f of the time)", b/a, a/b)
			}
		}
		if !math.IsNaN(a) && !math.IsNaN(l) && l > 0 {
			share = fmt.Sprintf("%.0f %%", 100*a/l)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", r.name, figure(a, r.unit), figure(b, r.unit), ratio, r.target, figure(l, r.unit), share, r.limitTarget)
	}
	tw.Flush()
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := slices.Clone(v)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func figure(v float64, unit string) string {
	switch {
	case math.IsNaN(v):
		return "—"
	case unit == "":
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 100:
		return fmt.Sprintf("%.0f %s", v, unit)
	}
	return fmt.Sprintf("%.2f %s", v, unit)
}

var ogrCount = regexp.MustCompile(`Feature Count: (\d+)`)

// gpkgCount is the number of features ogrinfo counts in a GeoPackage's
// one layer, 0 when it cannot tell.
func gpkgCount(path string) int {
	out, err := exec.Command("ogrinfo", "-ro", "-so", "-al", path).Output()
	if err != nil {
		return 0
	}
	m := ogrCount.FindSubmatch(out)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(string(m[1]))
	return n
}

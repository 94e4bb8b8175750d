package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"mime/multipart"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/syriamap/syriamap/internal/pgtest"
)

// The replicas scenario (`--scenarios replicas`, issue 71): the bench's
// archive copied with `syriamap copy` into a private PostgreSQL cluster,
// served by two replicas (one SYRIAMAP_DATA, one --originals) behind
// HAProxy configured as the README's team server. A mixed load runs
// through the balancer and one replica is killed with SIGKILL half way;
// then, both replicas up again, PostgreSQL is stopped for 10 s right
// after a correction, while a reader polls both replicas' window.

// replicasDB is the database the scenario copies the archive into.
const replicasDB = "replicas"

// replicasPort is the private cluster's port, not the engines' (peerPort),
// so that both benches may run at once.
const replicasPort = 54339

// haproxyTemplate is the README's load balancer configuration.
const haproxyTemplate = "cmd/syriamap/testdata/haproxy.cfg"

// replicaSet is the team server the scenario runs.
type replicaSet struct {
	r                    *reliability
	pg                   *postgres
	dsn, originals, data string
	token                string
	ports                [2]int
	srv                  [2]*server
	front                string
	haproxy              *exec.Cmd
	haproxyLog           string // its log file
	progress             func(string, ...any)
	rows                 [][3]string // target, figure, met
	loadStart, killedAt  time.Time
	diedAt               time.Time // when the killed replica's process was gone
	relayNames           []string
	relayJobs            map[string]string // job id → its caption's word
}

// replicasScenario runs both phases and prints the table.
func (r *reliability) replicasScenario(stdout io.Writer, progress func(string, ...any)) error {
	rs := &replicaSet{r: r, progress: progress, relayJobs: map[string]string{}}
	defer rs.close()
	err := rs.setUp()
	if err == nil {
		err = rs.killPhase()
	}
	if err == nil {
		err = rs.outagePhase()
	}
	rs.write(stdout)
	return err
}

func (rs *replicaSet) row(target, figure string, met bool) {
	yes := "no"
	if met {
		yes = "yes"
	}
	rs.rows = append(rs.rows, [3]string{target, figure, yes})
}

func (rs *replicaSet) write(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "replicas on PostgreSQL\tfigure\tmet\n")
	for _, r := range rs.rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", r[0], r[1], r[2])
	}
	tw.Flush()
}

// setUp starts the cluster, copies the archive in, starts both replicas
// and the balancer.
func (rs *replicaSet) setUp() error {
	ctx, cfg := rs.r.ctx, rs.r.cfg
	bin, err := pgtest.Bin()
	if err != nil {
		return err
	}
	work, err := filepath.Abs(filepath.Join(cfg.dir, "replicas"))
	if err != nil {
		return err
	}
	os.RemoveAll(filepath.Join(work, "data"))
	rs.originals, rs.data = filepath.Join(work, "originals"), filepath.Join(work, "data")
	for _, d := range []string{rs.originals, rs.data} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	if rs.pg, err = startPostgresOn(ctx, bin, work, replicasPort, rs.progress); err != nil {
		return err
	}
	if out, err := rs.pg.asPostgres(ctx, "createdb", "-h", "127.0.0.1", "-p", fmt.Sprint(replicasPort), "-U", "postgres", replicasDB).CombinedOutput(); err != nil {
		return commandError("createdb", err, out)
	}
	rs.dsn = fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s", replicasPort, replicasDB)
	rs.progress("replicas: syriamap copy to PostgreSQL")
	start := time.Now()
	if out, err := exec.CommandContext(ctx, cfg.syriamap, "copy", rs.r.db, rs.dsn).CombinedOutput(); err != nil {
		return commandError("syriamap copy", err, out)
	}
	rs.progress("replicas: copied in %.0f s", time.Since(start).Seconds())
	out, err := exec.CommandContext(ctx, cfg.syriamap, "tokens", "create", "--db", rs.dsn, "bench").Output()
	if err != nil {
		return commandError("syriamap tokens create", err, out)
	}
	rs.token = strings.TrimSpace(string(out))
	for i := range rs.ports {
		if rs.ports[i], err = freePort(); err != nil {
			return err
		}
		if err := rs.startReplica(i); err != nil {
			return err
		}
	}
	return rs.startBalancer(work)
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// startReplica starts replica i (a or b) on its port and waits for its
// memory index.
func (rs *replicaSet) startReplica(i int) error {
	name := string(rune('a' + i))
	rs.progress("replicas: starting replica %s", name)
	srv, err := startServerEnv(rs.r.ctx, []string{"SYRIAMAP_DATA=" + rs.data}, rs.r.cfg.syriamap, rs.dsn,
		"--originals", rs.originals, "--replica", name, "--trusted-proxy", "127.0.0.1", "--addr", fmt.Sprintf("127.0.0.1:%d", rs.ports[i]))
	if err != nil {
		return err
	}
	rs.srv[i] = srv
	srv.waitIndex(rs.r.ctx)
	return nil
}

// startBalancer runs haproxy with the README's configuration, its ports
// replaced, and waits until it answers.
func (rs *replicaSet) startBalancer(work string) error {
	tmpl, err := os.ReadFile(haproxyTemplate)
	if err != nil {
		return fmt.Errorf("the README's HAProxy configuration (run from the repository's root): %w", err)
	}
	bin, err := exec.LookPath("haproxy")
	if err != nil {
		if bin, err = exec.LookPath("/usr/sbin/haproxy"); err != nil {
			return fmt.Errorf("haproxy is not installed (apt-get install haproxy)")
		}
	}
	port, err := freePort()
	if err != nil {
		return err
	}
	cfg := strings.NewReplacer("127.0.0.1:8080", fmt.Sprintf("127.0.0.1:%d", port),
		"127.0.0.1:8081", fmt.Sprintf("127.0.0.1:%d", rs.ports[0]), "127.0.0.1:8082", fmt.Sprintf("127.0.0.1:%d", rs.ports[1])).Replace(string(tmpl))
	// Each request's log line names the bench's id of it, so that a
	// failure is told apart: sent to the killed replica, or not.
	cfg = strings.Replace(cfg, "frontend syriamap\n", "frontend syriamap\n\tcapture request header X-Bench-Id len 24\n", 1)
	path := filepath.Join(work, "haproxy.cfg")
	if err := os.WriteFile(path, []byte("global\n\tlog stderr format raw daemon\n\n"+cfg), 0o644); err != nil {
		return err
	}
	rs.haproxyLog = filepath.Join(work, "haproxy.log")
	logs, err := os.Create(rs.haproxyLog)
	if err != nil {
		return err
	}
	defer logs.Close() // haproxy has its own
	rs.haproxy = exec.Command(bin, "-db", "-f", path)
	rs.haproxy.Stdout, rs.haproxy.Stderr = logs, logs
	if err := rs.haproxy.Start(); err != nil {
		return err
	}
	rs.front = fmt.Sprintf("http://127.0.0.1:%d", port)
	for range 300 {
		if resp, err := http.Get(rs.front + "/healthz"); err == nil {
			drain(resp)
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(100 * time.Millisecond) // polling haproxy for its start
	}
	return fmt.Errorf("haproxy does not answer; see %s", rs.haproxyLog)
}

func (rs *replicaSet) close() {
	if rs.haproxy != nil {
		rs.haproxy.Process.Signal(syscall.SIGTERM)
		rs.haproxy.Wait()
	}
	for _, s := range rs.srv {
		if s != nil {
			s.close()
		}
	}
	if rs.pg != nil {
		rs.pg.stop()
	}
}

// outcome is one request of the load.
type outcome struct {
	id         string // its X-Bench-Id
	kind       string
	start, end time.Time
	status     int // 0: no answer
	replica    string
	err        error
}

// recorder keeps the load's outcomes.
type recorder struct {
	mu  sync.Mutex
	out []outcome
	n   atomic.Int64
}

func (rc *recorder) add(o outcome) {
	rc.mu.Lock()
	rc.out = append(rc.out, o)
	rc.mu.Unlock()
}

// do sends req, reads its answer whole and records it; it returns the
// answer's body and status (0 when none came).
func (rc *recorder) do(hc *http.Client, kind string, req *http.Request) ([]byte, int) {
	o := outcome{id: fmt.Sprint(rc.n.Add(1)), kind: kind}
	req.Header.Set("X-Bench-Id", o.id)
	o.start = time.Now()
	resp, err := hc.Do(req)
	var body []byte
	if err == nil {
		body, err = io.ReadAll(resp.Body)
		resp.Body.Close()
		o.status, o.replica = resp.StatusCode, resp.Header.Get("X-Syriamap-Replica")
	}
	o.end, o.err = time.Now(), err
	if req.Context().Err() == nil {
		rc.add(o)
	}
	return body, o.status
}

// killPhase: the mixed load through the balancer, replica a killed half
// way.
func (rs *replicaSet) killPhase() error {
	d := max(rs.r.cfg.stall, time.Minute)
	rs.progress("replicas: the mixed load through haproxy for %s, replica a killed after %s", d, d/2)
	ctx, cancel := context.WithCancel(rs.r.ctx)
	var wg sync.WaitGroup
	rc := &recorder{}
	var mu sync.Mutex
	rs.loadStart = time.Now()
	rs.loadWorkers(ctx, &wg, rc, &mu)
	var healthz, window []float64
	wg.Add(1)
	go func() {
		defer wg.Done()
		healthz, window = rs.probeLive(ctx)
	}()
	time.Sleep(d / 2)
	rs.killedAt = time.Now()
	rs.srv[0].cmd.Process.Kill()
	rs.diedAt = gone(strings.TrimPrefix(rs.srv[0].url, "http://"))
	time.Sleep(d/2 - time.Since(rs.killedAt))
	cancel()
	wg.Wait()
	rs.srv[0].close()
	rs.srv[0] = nil
	rs.reportLoad(rc.out)
	rs.row("/healthz p99 on the live replica < 100 ms", fmt.Sprintf("%.1f ms (%d probes, p50 %.1f ms, slowest %.0f ms)", quantile(healthz, 0.99), len(healthz), quantile(healthz, 0.5), slowest(healthz)), quantile(healthz, 0.99) < 100)
	rs.row("city window p99 on the live replica < 250 ms", fmt.Sprintf("%.1f ms (%d probes, p50 %.1f ms, slowest %.0f ms)", quantile(window, 0.99), len(window), quantile(window, 0.5), slowest(window)), quantile(window, 0.99) < 250)
	return rs.checkWrites()
}

// loadWorkers starts the mix through the balancer: four readers of
// windows, searches and review pages, a CSV download, an evidence
// export, a place added every 0.3 s and a caption file uploaded every
// 2 s.
func (rs *replicaSet) loadWorkers(ctx context.Context, wg *sync.WaitGroup, rc *recorder, mu *sync.Mutex) {
	hc := &http.Client{Timeout: 2 * time.Minute}
	get := func(path string) *http.Request {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, rs.front+path, nil)
		req.Header.Set("Authorization", "Bearer "+rs.token)
		return req
	}
	loop := func(every time.Duration, f func(n int)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; ctx.Err() == nil; n++ {
				start := time.Now()
				f(n)
				select {
				case <-ctx.Done():
				case <-time.After(max(0, every-time.Since(start))):
				}
			}
		}()
	}
	for i := range 4 {
		rng := rand.New(rand.NewPCG(uint64(i), 71))
		loop(0, func(n int) {
			switch n % 3 {
			case 0:
				m := fmt.Sprintf("%d-%02d", 2012+rng.IntN(6), 1+rng.IntN(12))
				rc.do(hc, "window", get("/api/photos.geojson?from="+m+"&to="+m+"&bbox="+cityBoxes[rng.IntN(len(cityBoxes))]))
			case 1:
				rc.do(hc, "search", get("/api/photos.geojson?q="+url.QueryEscape(heavySearches[n%len(heavySearches)])))
			default:
				rc.do(hc, "review", get(reviewFilters[n%len(reviewFilters)]))
			}
		})
	}
	loop(0, func(int) { rc.do(hc, "csv", get("/api/photos.csv?from=2016&to=2016")) })
	loop(0, func(m int) {
		month := fmt.Sprintf("%d-%02d", 2013+m%4, 1+m%12)
		form := url.Values{"from": {month + "-01"}, "to": {month + "-20"}}
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, rs.front+"/evidence.zip", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Authorization", "Bearer "+rs.token)
		rc.do(hc, "export", req)
	})
	loop(300*time.Millisecond, func(int) {
		name := "Relay Shelter " + spelled(time.Now().UnixNano())
		body := fmt.Sprintf(`{"name": %q, "kind": "camp", "lon": 36.25, "lat": 33.51}`, name)
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, rs.front+"/api/places", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+rs.token)
		if _, status := rc.do(hc, "place", req); status == http.StatusCreated {
			mu.Lock()
			rs.relayNames = append(rs.relayNames, name)
			mu.Unlock()
		}
	})
	loop(2*time.Second, func(n int) {
		word := spelled(time.Now().UnixNano())
		caption := fmt.Sprintf("Children walk past a relay shelter %s in Aleppo, Syria, May %d, 2016.\n", word, 1+n%28)
		if id := rs.upload(ctx, hc, rc, fmt.Sprintf("relay-%d.txt", n), caption); id != "" {
			mu.Lock()
			rs.relayJobs[id] = word
			mu.Unlock()
		}
	})
}

// upload posts one caption file through the balancer and returns its
// job's id when accepted.
func (rs *replicaSet) upload(ctx context.Context, hc *http.Client, rc *recorder, name, caption string) string {
	var buf bytes.Buffer
	mw := newMultipart(&buf, name, caption)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, rs.front+"/api/imports", &buf)
	req.Header.Set("Authorization", "Bearer "+rs.token)
	req.Header.Set("Content-Type", mw)
	body, status := rc.do(hc, "upload", req)
	if status != http.StatusAccepted {
		return ""
	}
	var job struct {
		ID string `json:"id"`
	}
	json.Unmarshal(body, &job)
	return job.ID
}

// probeLive asks the live replica (b) itself for /healthz and a city
// window in turn until ctx is done, and returns their times.
func (rs *replicaSet) probeLive(ctx context.Context) (healthz, window []float64) {
	probe := &http.Client{Timeout: 30 * time.Second}
	rng := rand.New(rand.NewPCG(3, 4))
	base := rs.srv[1].url
	for i := 0; ctx.Err() == nil; i++ {
		path := "/healthz"
		if i%2 == 1 {
			m := fmt.Sprintf("%d-%02d", 2012+rng.IntN(6), 1+rng.IntN(12))
			path = "/api/photos.geojson?from=" + m + "&to=" + m + "&bbox=" + cityBoxes[rng.IntN(len(cityBoxes))]
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+path, nil)
		start := time.Now()
		resp, err := probe.Do(req)
		took := ms(time.Since(start))
		if err == nil {
			drain(resp)
			took = ms(time.Since(start))
			if resp.StatusCode != http.StatusOK {
				took = max(took, 30_000)
			}
		} else if ctx.Err() != nil {
			break
		} else {
			took = max(took, 30_000) // a failed probe counts as the slowest
		}
		if i%2 == 0 {
			healthz = append(healthz, took)
		} else {
			window = append(window, took)
		}
		select {
		case <-ctx.Done():
		case <-time.After(20 * time.Millisecond):
		}
	}
	return healthz, window
}

// failed says whether an outcome is a failure: no answer, or a 5xx
// other than a 503 (a server shedding load, with Retry-After).
func (o outcome) failed() bool {
	return o.err != nil || o.status == 0 || (o.status >= 500 && o.status != http.StatusServiceUnavailable)
}

// gone waits (at most 30 s) until nothing listens at addr any more and
// returns when: a process killed with SIGKILL keeps its sockets until the
// kernel has torn it down (seconds, for a large one on a busy machine),
// and until then the kernel accepts connections for it.
func gone(addr string) time.Time {
	for start := time.Now(); time.Since(start) < 30*time.Second; {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err != nil {
			break
		}
		c.Close()
		time.Sleep(5 * time.Millisecond) // polling the socket for its end
	}
	return time.Now()
}

// haproxyLine is what haproxy logged of one request: the server it went
// to last, its termination state and its retries ("+1": redispatched).
type haproxyLine struct {
	server, state, retries string
}

var haproxyLineRe = regexp.MustCompile(`replicas/(\S+) \S+ -?\d+ \S+ \S+ \S+ (\S{4}) \d+/\d+/\d+/\d+/(\+?\d+) \S+ \{([^}]*)\}`)

// haproxyLines reads haproxy's log, by X-Bench-Id.
func (rs *replicaSet) haproxyLines() map[string]haproxyLine {
	b, _ := os.ReadFile(rs.haproxyLog)
	lines := map[string]haproxyLine{}
	for _, m := range haproxyLineRe.FindAllStringSubmatch(string(b), -1) {
		lines[m[4]] = haproxyLine{server: m[1], state: m[2], retries: m[3]}
	}
	return lines
}

// reportLoad counts the load's requests, failures, and those of the
// failures that haproxy had sent to replica a before its process was
// gone: in flight to the killed replica.
func (rs *replicaSet) reportLoad(out []outcome) {
	logged := rs.haproxyLines()
	kinds := map[string]int{}
	var failed, inFlight, silent, shed, redispatched int
	var others, flights []string
	for _, o := range out {
		kinds[o.kind]++
		line := logged[o.id]
		if strings.HasPrefix(line.retries, "+") {
			redispatched++
		}
		if o.status == http.StatusServiceUnavailable {
			shed++
		}
		if !o.failed() {
			continue
		}
		failed++
		why := fmt.Sprint(o.status)
		if o.err != nil {
			why = o.err.Error()
		}
		desc := fmt.Sprintf("%s sent at +%.2f s, ended +%.2f s: %s, haproxy: server %s, %s", o.kind, o.start.Sub(rs.loadStart).Seconds(), o.end.Sub(rs.loadStart).Seconds(), why, line.server, line.state)
		dying := o.start.Before(rs.diedAt) && !o.end.Before(rs.killedAt)
		// haproxy logs nothing of a request it sent on a kept-alive
		// connection to a replica that closed it without an answer: it
		// closes the client's connection the same way, for the client to
		// retry. Only the killed replica's connections closed so.
		if dying && (line.server == "a" || (line.server == "" && o.end.Sub(rs.diedAt).Abs() < time.Second)) {
			inFlight++
			if line.server == "" {
				silent++
			}
			flights = append(flights, desc)
			continue
		}
		others = append(others, desc)
	}
	var mix []string
	for _, k := range []string{"window", "search", "review", "csv", "export", "place", "upload"} {
		mix = append(mix, fmt.Sprintf("%d %s", kinds[k], k))
	}
	rs.row("requests through haproxy, replica a killed half way", fmt.Sprintf("%d (%s); %d redispatched by haproxy; %d shed busy (503); a's sockets closed %.2f s after SIGKILL",
		len(out), strings.Join(mix, ", "), redispatched, shed, rs.diedAt.Sub(rs.killedAt).Seconds()), true)
	rs.row("no request fails but those in flight to the killed one", fmt.Sprintf("%d failed: %d in flight to the killed replica (%d of them closed by haproxy unlogged), %d others", failed, inFlight, silent, failed-inFlight), failed == inFlight)
	for _, f := range flights {
		rs.progress("replicas: in flight to the killed replica: %s", f)
	}
	for _, f := range others {
		rs.progress("replicas: FAILED, not in flight to the killed replica: %s", f)
	}
}

// checkWrites looks in the archive for every place answered 201 and
// waits for every accepted upload's job, then counts its photos.
func (rs *replicaSet) checkWrites() error {
	names, err := rs.psql("SELECT name FROM added_places WHERE name LIKE 'Relay Shelter %'")
	if err != nil {
		return err
	}
	found := 0
	have := map[string]bool{}
	for _, n := range strings.Split(names, "\n") {
		have[n] = true
	}
	for _, n := range rs.relayNames {
		if have[n] {
			found++
		}
	}
	rs.row("no write lost: places answered 201, found in the archive", fmt.Sprintf("%d of %d", found, len(rs.relayNames)), found == len(rs.relayNames))
	states := map[string]int{}
	for id := range rs.relayJobs {
		states[rs.waitJob(id)]++
	}
	captions, err := rs.psql("SELECT caption FROM photos WHERE caption LIKE '%relay shelter%'")
	if err != nil {
		return err
	}
	// Each upload's caption names a word of its own.
	seen := map[string]int{}
	for _, c := range strings.Split(captions, "\n") {
		if f := strings.Fields(strings.SplitN(c+" relay shelter ", "relay shelter ", 2)[1]); len(f) > 0 {
			seen[f[0]]++
		}
	}
	once, twice := 0, 0
	for _, n := range seen {
		if n > 1 {
			twice++
		}
	}
	for _, word := range rs.relayJobs {
		if seen[word] == 1 {
			once++
		}
	}
	rs.row("uploads accepted (202): jobs done; each one's photo in the archive once",
		fmt.Sprintf("%d accepted: %d done, %d failed, %d not done in 3 min; %d found once; %d uploads' photos in all (with those whose 202 was lost); %d imported twice",
			len(rs.relayJobs), states["done"], states["failed"], len(rs.relayJobs)-states["done"]-states["failed"], once, len(seen), twice),
		states["done"] == len(rs.relayJobs) && once == len(rs.relayJobs) && twice == 0)
	return nil
}

// waitJob polls an import job through the balancer until it is done or
// failed (at most 3 minutes) and returns its last state.
func (rs *replicaSet) waitJob(id string) string {
	state := ""
	for start := time.Now(); time.Since(start) < 3*time.Minute; {
		req, _ := http.NewRequest(http.MethodGet, rs.front+"/api/imports/"+id, nil)
		req.Header.Set("Authorization", "Bearer "+rs.token)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			var job struct {
				State string `json:"state"`
			}
			json.NewDecoder(resp.Body).Decode(&job)
			drain(resp)
			if state = job.State; state == "done" || state == "failed" {
				return state
			}
		}
		time.Sleep(200 * time.Millisecond) // polling a job for its state
	}
	return state
}

// psql runs one query on the archive's database and returns its rows.
func (rs *replicaSet) psql(query string) (string, error) {
	out, err := exec.CommandContext(rs.r.ctx, filepath.Join(rs.pg.bin, "psql"), "-h", "127.0.0.1", "-p", strconv.Itoa(replicasPort), "-U", "postgres",
		"-d", replicasDB, "-Atc", query).Output()
	if err != nil {
		return "", commandError("psql", err, out)
	}
	return strings.TrimSpace(string(out)), nil
}

// poll is one answer of the outage phase's reader.
type poll struct {
	replica    int
	start, end time.Time
	status     int
	fresh      bool // the last write's photo is in the window
}

// outagePhase: replica a started again; a correction moves a photo to a
// point of its own; PostgreSQL is stopped at once for 10 s and started
// again, while a reader polls each replica's window around that point.
func (rs *replicaSet) outagePhase() error {
	if err := rs.startReplica(0); err != nil {
		return err
	}
	id, err := firstPhotoID(rs.srv[1].url)
	if err != nil {
		return err
	}
	lon, lat := 38.4321, 35.7654
	window := fmt.Sprintf("/api/photos.geojson?bbox=%.4f,%.4f,%.4f,%.4f", lon-0.001, lat-0.001, lon+0.001, lat+0.001)
	ctx, cancel := context.WithCancel(rs.r.ctx)
	defer cancel()
	var mu sync.Mutex
	var polls []poll
	var wg sync.WaitGroup
	for i := range rs.srv {
		wg.Add(1)
		go func() {
			defer wg.Done()
			hc := &http.Client{Timeout: 10 * time.Second}
			for ctx.Err() == nil {
				p := poll{replica: i, start: time.Now()}
				req, _ := http.NewRequestWithContext(ctx, http.MethodGet, rs.srv[i].url+window, nil)
				if resp, err := hc.Do(req); err == nil {
					body, _ := io.ReadAll(resp.Body)
					resp.Body.Close()
					p.status, p.fresh = resp.StatusCode, bytes.Contains(body, []byte(`"`+id+`"`))
				}
				p.end = time.Now()
				mu.Lock()
				polls = append(polls, p)
				mu.Unlock()
				time.Sleep(50 * time.Millisecond) // a reader's pace
			}
		}()
	}
	rs.progress("replicas: the last write, then PostgreSQL stopped for 10 s")
	if status := rs.correct(rs.srv[0].url, id, lon, lat); status != http.StatusOK {
		return fmt.Errorf("the last write before the stop answered %d", status)
	}
	wrote := time.Now()
	rs.pg.stop()
	stopped := time.Now()
	time.Sleep(2 * time.Second)
	writeDown := rs.correct(rs.srv[1].url, id, lon+0.0002, lat)
	time.Sleep(8 * time.Second)
	restarting := time.Now()
	if err := rs.pg.start(rs.r.ctx); err != nil {
		return err
	}
	back := time.Now()
	time.Sleep(15 * time.Second)
	cancel()
	wg.Wait()
	rs.progress("replicas: PostgreSQL stopped %.2f s after the last write's answer", stopped.Sub(wrote).Seconds())
	rs.reportOutage(polls, wrote, stopped, restarting, back, writeDown)
	return nil
}

// correct moves photo id to lon, lat through the replica at base and
// returns the answer's status.
func (rs *replicaSet) correct(base, id string, lon, lat float64) int {
	body := fmt.Sprintf(`{"lon": %.4f, "lat": %.4f, "note": "the last write before the outage"}`, lon, lat)
	req, _ := http.NewRequest(http.MethodPut, base+"/api/photos/"+id+"/placement", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+rs.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		return 0
	}
	drain(resp)
	return resp.StatusCode
}

// reportOutage: the statuses answered while PostgreSQL was down, how
// long each replica took to answer 200 after it was back, and the stale
// answers after.
func (rs *replicaSet) reportOutage(polls []poll, wrote, stopped, restarting, back time.Time, writeDown int) {
	down := map[int]int{}
	stale := 0
	lastOther := -1.0 // the latest non-503 while down, in s after the write
	var recovered [2]float64
	for i := range recovered {
		recovered[i] = -1
	}
	for _, p := range polls {
		if p.start.After(stopped) && p.end.Before(restarting) {
			down[p.status]++
			if p.status != http.StatusServiceUnavailable {
				lastOther = max(lastOther, p.start.Sub(wrote).Seconds())
				rs.progress("replicas: while PostgreSQL was down, replica %c answered %d, asked %.2f s after the stop, %.2f s after the last write's answer (the write in it: %v)",
					'a'+p.replica, p.status, p.start.Sub(stopped).Seconds(), p.start.Sub(wrote).Seconds(), p.fresh)
			}
		}
		if p.start.After(back) && p.status == http.StatusOK {
			if !p.fresh {
				stale++
			}
			if recovered[p.replica] < 0 {
				recovered[p.replica] = p.end.Sub(back).Seconds()
			}
		}
	}
	var seen []string
	codes := make([]int, 0, len(down))
	for c := range down {
		codes = append(codes, c)
	}
	slices.Sort(codes)
	for _, c := range codes {
		seen = append(seen, fmt.Sprintf("%d×%d", down[c], c))
	}
	fig := strings.Join(seen, ", ") + " (0: no answer)"
	if lastOther >= 0 {
		fig += fmt.Sprintf("; the others asked ≤ %.2f s after the last write's answer, stopped %.2f s after it", lastOther, stopped.Sub(wrote).Seconds())
	}
	rs.row("PostgreSQL down 10 s: only 503s while it is down", fig, len(down) == 1 && down[503] > 0)
	rs.row("a correction while it is down: refused 503", fmt.Sprint(writeDown), writeDown == http.StatusServiceUnavailable)
	for i, s := range recovered {
		fig := fmt.Sprintf("%.2f s", s)
		if s < 0 {
			fig = "no 200 in 15 s"
		}
		rs.row(fmt.Sprintf("replica %c answers 200 again ≤ 5 s after it is back", 'a'+i), fig, s >= 0 && s <= 5)
	}
	rs.row("answers after it is back older than the last write", fmt.Sprint(stale), stale == 0)
}

// newMultipart writes one form file named name holding body to buf, as
// POST /api/imports takes it, and returns the form's content type.
func newMultipart(buf *bytes.Buffer, name, body string) string {
	mw := multipart.NewWriter(buf)
	w, _ := mw.CreateFormFile("files", name)
	io.WriteString(w, body)
	mw.Close()
	return mw.FormDataContentType()
}

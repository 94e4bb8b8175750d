package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/syriamap/syriamap/internal/resize/bomb"
)

// The reliability scenarios (issue 23), each against a fresh server
// (once its memory index is built) so that each peak is its own: image bombs, a flood of sign-ins, clients
// that stop reading gzipped windows while the archive changes, and the
// stall scenario with the review pages among the heavy requests.

// reliabilityPassword is the bench editor's password.
const reliabilityPassword = "the bench editor's password"

// runReliability builds an archive of size generated captions and the
// bombs, and prints each scenario's figures.
func runReliability(ctx context.Context, cfg config, size int, stdout io.Writer, progress func(string, ...any)) error {
	r, err := newReliability(ctx, cfg, size, progress)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Reliability, %d generated photos and the bombs (%s)\n", size, time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	// Two replicas on PostgreSQL behind HAProxy: only when named, as it
	// needs both installed.
	if slices.Contains(cfg.scenarios, "replicas") {
		progress("reliability: replicas")
		if err := r.replicasScenario(stdout, progress); err != nil {
			return fmt.Errorf("replicas: %w", err)
		}
	}
	for _, sc := range []struct {
		name string
		run  func(srv *server) (string, error)
	}{
		{"image bombs", r.bombScenario},
		{"49 MP JPEGs and PNGs", r.megapixelScenario},
		{"250 parallel sign-ins", r.signInScenario},
		{"8 stalled gzip clients + writes", r.stalledScenario},
		{"stall with review pages", r.reviewScenario},
		{"mixed: downloads, review, exports, adds, uploads", r.mixedScenario},
	} {
		if len(cfg.scenarios) > 0 && !slices.ContainsFunc(cfg.scenarios, func(s string) bool { return strings.HasPrefix(sc.name, s) }) {
			continue
		}
		progress("reliability: %s", sc.name)
		srv, err := startServer(ctx, cfg.syriamap, r.db, "--media", r.media)
		if err != nil {
			return err
		}
		// On a server that has built its memory index, as `make bench`'s
		// stall is measured: until then it answers windows from SQLite,
		// and the build shares the cores with the scenario.
		srv.waitIndex(ctx)
		before, _ := srv.memory()
		line, err := sc.run(srv)
		mem, _ := srv.memory()
		srv.close()
		if err != nil {
			return fmt.Errorf("%s: %w", sc.name, err)
		}
		fmt.Fprintf(stdout, "  %-34s peak RSS %4.0f MiB, PSS %4.0f MiB (at start %3.0f MiB); %s\n", sc.name, mem.peakRSS, mem.peakPSS, before.peakRSS, line)
	}
	return nil
}

// reliability is the archive the reliability scenarios run on: its
// file, its media folder with the bombs, and an editor's token.
type reliability struct {
	ctx       context.Context
	cfg       config
	db, media string
	token     string
	bombs     map[string][]byte
}

// newReliability generates the captions and the bombs, imports them and
// makes an editor.
func newReliability(ctx context.Context, cfg config, size int, progress func(string, ...any)) (*reliability, error) {
	r := &reliability{ctx: ctx, cfg: cfg}
	dir := filepath.Join(cfg.dir, "reliability")
	os.RemoveAll(dir)
	r.media = filepath.Join(dir, "media")
	if err := os.MkdirAll(r.media, 0o755); err != nil {
		return nil, err
	}
	captions := filepath.Join(dir, "captions.txt")
	r.db = filepath.Join(dir, "archive.db")
	progress("reliability: generating %d captions and the bombs", size)
	if err := generate(ctx, cfg.syriamap, size, captions); err != nil {
		return nil, err
	}
	r.bombs = map[string][]byte{
		"flat-24000.jpg":   bomb.WithCaption(bomb.FlatJPEG(24000, 24000, false), "Flat blocks in Aleppo, Syria, May 1, 2016."),
		"flat-30000p.jpg":  bomb.WithCaption(bomb.FlatJPEG(30000, 30000, true), "Progressive flat blocks in Homs, Syria, May 2, 2016."),
		"header-65000.jpg": bomb.WithCaption(bomb.HeaderJPEG(65000, 65000, true), "A header in Hama, Syria, May 3, 2016."),
		"big-8000.jpg":     bomb.WithCaption(bomb.FlatJPEG(8000, 6000, false), "A big picture in Idlib, Syria, May 4, 2016."),
		"header-30000.png": bomb.HeaderPNG(30000, 30000),
	}
	// Pictures just under the 50-megapixel limit, decoded in full: nine
	// distinct colour JPEGs at full colour resolution (4:4:4, 147 MB
	// each to decode) and three RGBA PNGs (196 MB each).
	for i := range 9 {
		r.bombs[fmt.Sprintf("colour-49mp-%d.jpg", i)] = bomb.WithCaption(bomb.ColourJPEG(7000, 7000),
			fmt.Sprintf("A large picture %d in Aleppo, Syria, May %d, 2016.", i+1, i+1))
	}
	for i := range 3 {
		r.bombs[fmt.Sprintf("rgba-49mp-%d.png", i)] = bomb.FlatPNG(7000, 7000)
	}
	for name, b := range r.bombs {
		if err := os.WriteFile(filepath.Join(r.media, name), b, 0o644); err != nil {
			return nil, err
		}
	}
	progress("reliability: importing")
	for _, args := range [][]string{{"import", "--db", r.db, captions}, {"import", "--db", r.db, r.media}} {
		if out, err := exec.CommandContext(ctx, cfg.syriamap, args...).CombinedOutput(); err != nil && !strings.Contains(string(out), "skipped") {
			return nil, commandError("syriamap import", err, out)
		}
	}
	add := exec.CommandContext(ctx, cfg.syriamap, "users", "add", "--db", r.db, "--password-stdin", "bench")
	add.Stdin = strings.NewReader(reliabilityPassword + "\n")
	if out, err := add.CombinedOutput(); err != nil {
		return nil, commandError("syriamap users add", err, out)
	}
	out, err := exec.CommandContext(ctx, cfg.syriamap, "tokens", "create", "--db", r.db, "bench").Output()
	if err != nil {
		return nil, commandError("syriamap tokens create", err, out)
	}
	r.token = strings.TrimSpace(string(out))

	return r, nil
}

// sha is the address of a bomb imported as an image file.
func (r *reliability) sha(name string) string {
	sum := sha256.Sum256(r.bombs[name])
	return hex.EncodeToString(sum[:])
}

// bombScenario: every bomb asked for at once, several times over, and
// forty thumbnails of a 48-megapixel picture, while /healthz is probed.
func (r *reliability) bombScenario(srv *server) (string, error) {
	var paths []string
	for range 4 {
		for _, n := range []string{"flat-24000.jpg", "flat-30000p.jpg", "header-65000.jpg"} {
			paths = append(paths, "/images/"+r.sha(n)+"/1280.jpg", "/images/"+r.sha(n)+"/320.jpg")
		}
		paths = append(paths, "/media/thumb/header-30000.png", "/media/flat-24000.jpg")
	}
	for i := range 40 {
		paths = append(paths, fmt.Sprintf("/media/thumb/big-8000.jpg?size=%d", 100+i))
	}
	codes, healthz := hammer(r.ctx, srv.url, paths, nil)
	return fmt.Sprintf("healthz p99 %.1f ms (%d probes); answers %s", quantile(healthz, 0.99), len(healthz), codes), nil
}

// megapixelScenario: both derivatives of the nine 49-megapixel JPEGs and
// thumbnails of the three 49-megapixel PNGs at six sizes, all asked for
// at once, while /healthz is probed. The server's peak RSS against its
// image budget (resize.DefaultBudget, 400 MB) is issue 39's figure: at
// most the budget and 250 MB.
func (r *reliability) megapixelScenario(srv *server) (string, error) {
	var paths []string
	for i := range 9 {
		sha := r.sha(fmt.Sprintf("colour-49mp-%d.jpg", i))
		paths = append(paths, "/images/"+sha+"/1280.jpg", "/images/"+sha+"/320.jpg")
	}
	for i := range 3 {
		for size := range 6 {
			paths = append(paths, fmt.Sprintf("/media/thumb/rgba-49mp-%d.png?size=%d", i, 200+40*size))
		}
	}
	codes, healthz := hammer(r.ctx, srv.url, paths, nil)
	return fmt.Sprintf("healthz p99 %.1f ms (%d probes), worst %.0f ms; answers %s", quantile(healthz, 0.99), len(healthz), quantile(healthz, 1), codes), nil
}

// signInScenario: 250 sign-ins at once, each from an address of its own
// (127.0.0.0/8), so that the brake does not turn them away before their
// password is checked.
func (r *reliability) signInScenario(srv *server) (string, error) {
	codes := map[int]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := time.Now()
	for i := range 250 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ip := net.IPv4(127, 1, byte(i/200), byte(1+i%200))
			c := &http.Client{Timeout: time.Minute, Transport: &http.Transport{DialContext: (&net.Dialer{LocalAddr: &net.TCPAddr{IP: ip}}).DialContext},
				CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
			pw := "a wrong password"
			if i%10 == 0 {
				pw = reliabilityPassword
			}
			resp, err := c.PostForm(srv.url+"/signin", url.Values{"name": {"bench"}, "password": {pw}})
			code := 0
			if err == nil {
				drain(resp)
				code = resp.StatusCode
			}
			mu.Lock()
			codes[code]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	return fmt.Sprintf("in %.1f s: %d signed in (303), %d wrong (401), %d refused busy (503), %d braked (429), %d failed",
		time.Since(start).Seconds(), codes[303], codes[401], codes[503], codes[429], codes[0]), nil
}

// stalledScenario: eight clients ask for the whole archive gzipped and
// never read it, six rounds, a write (a correction, which moves the
// archive to a new version and so a new memory index) after each.
func (r *reliability) stalledScenario(srv *server) (string, error) {
	id, err := firstPhotoID(srv.url)
	if err != nil {
		return "", err
	}
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for round := range 6 {
		for range 8 {
			c, err := net.Dial("tcp", strings.TrimPrefix(srv.url, "http://"))
			if err != nil {
				return "", err
			}
			c.(*net.TCPConn).SetReadBuffer(4096)
			fmt.Fprintf(c, "GET /api/photos.geojson?from=2012&to=2017 HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n")
			conns = append(conns, c)
		}
		time.Sleep(2 * time.Second)
		body := fmt.Sprintf(`{"lon": 36.%d, "lat": 33.5, "note": "bench round %d"}`, round, round)
		req, _ := http.NewRequest(http.MethodPut, srv.url+"/api/photos/"+id+"/placement", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+r.token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return "", err
		}
		drain(resp)
		if resp.StatusCode != http.StatusOK {
			return "", fmt.Errorf("a correction: %s", resp.Status)
		}
	}
	// The stalled clients are cut off after the write idle limit (a
	// minute); then their responses' memory is free.
	time.Sleep(75 * time.Second)
	st, err := procStatus(srv.cmd.Process.Pid, "status")
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("RSS after the rounds and the idle limit %.0f MiB (private %.0f MiB)", float64(st["VmRSS"])/1024, float64(st["RssAnon"])/1024), nil
}

// reviewScenario: the stall scenario, with eight review readers among
// the heavy requests.
func (r *reliability) reviewScenario(srv *server) (string, error) {
	id, err := firstPhotoID(srv.url)
	if err != nil {
		return "", err
	}
	reviewCtx, cancel := context.WithCancel(r.ctx)
	var wg sync.WaitGroup
	var reviews, shed atomic.Int64
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := i; reviewCtx.Err() == nil; n++ {
				path := "/review?from=2012&to=2017"
				if n%2 == 1 {
					path = "/review/photos/" + id + "?q=" + url.QueryEscape(heavySearches[n%len(heavySearches)])
				}
				req, _ := http.NewRequestWithContext(reviewCtx, http.MethodGet, srv.url+path, nil)
				req.Header.Set("Authorization", "Bearer "+r.token)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					continue
				}
				drain(resp)
				if resp.StatusCode == http.StatusServiceUnavailable {
					shed.Add(1)
					time.Sleep(200 * time.Millisecond)
				} else {
					reviews.Add(1)
				}
			}
		}()
	}
	res, err := runStall(r.ctx, srv.url, r.cfg.stall, 8, 8, "")
	cancel()
	wg.Wait()
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s; review pages: %d answered, %d shed (503)", res, reviews.Load(), shed.Load()), nil
}

// hammer asks for every path at once (each once), probing /healthz
// meanwhile, and returns the statuses counted and the probes' times.
func hammer(ctx context.Context, base string, paths []string, header http.Header) (string, []float64) {
	var wg sync.WaitGroup
	var mu sync.Mutex
	codes := map[int]int{}
	done := make(chan struct{})
	c := &http.Client{Timeout: 2 * time.Minute}
	rand.Shuffle(len(paths), func(i, j int) { paths[i], paths[j] = paths[j], paths[i] })
	for _, p := range paths {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+p, nil)
			code := 0
			if resp, err := c.Do(req); err == nil {
				drain(resp)
				code = resp.StatusCode
			}
			mu.Lock()
			codes[code]++
			mu.Unlock()
		}()
	}
	go func() { wg.Wait(); close(done) }()
	var healthz []float64
	probe := &http.Client{Timeout: 30 * time.Second}
	for waiting := true; waiting; {
		start := time.Now()
		if resp, err := probe.Get(base + "/healthz"); err == nil {
			drain(resp)
			healthz = append(healthz, ms(time.Since(start)))
		} else {
			healthz = append(healthz, 30_000)
		}
		select {
		case <-done:
			waiting = false
		case <-time.After(20 * time.Millisecond):
		}
	}
	var parts []string
	for _, code := range []int{200, 409, 422, 503, 0} {
		if codes[code] > 0 {
			parts = append(parts, fmt.Sprintf("%d×%d", codes[code], code))
		}
	}
	return strings.Join(parts, ", "), healthz
}

// firstPhotoID is the first photo's id.
func firstPhotoID(base string) (string, error) {
	resp, err := http.Get(base + "/api/photos.geojson?limit=1")
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var fc struct {
		Features []struct {
			ID string `json:"id"`
		} `json:"features"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&fc); err != nil || len(fc.Features) == 0 {
		return "", fmt.Errorf("no photo in %s/api/photos.geojson: %v", base, err)
	}
	return fc.Features[0].ID, nil
}

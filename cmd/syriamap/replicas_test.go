package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/syriamap/syriamap/internal/http/middleware"
	"github.com/syriamap/syriamap/internal/http/session"
	"github.com/syriamap/syriamap/internal/pgtest"
)

// replica is one `syriamap serve` of the binary, in a child process.
type replica struct {
	url  string // http://127.0.0.1:port/
	cmd  *exec.Cmd
	mu   sync.Mutex
	logs bytes.Buffer
}

// log is what the replica has written to its standard error.
func (r *replica) log() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.logs.String()
}

func (r *replica) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.logs.Write(p)
}

// startReplica serves the archive at db as a team server's replica does
// (see the README's "A team server"): its originals in the shared
// folder originals, its other files in the data folder the replicas
// share (beside originals), named in its answers' X-Syriamap-Replica
// header. It is stopped with SIGINT
// when the test ends, unless it was killed before.
func startReplica(t *testing.T, db, originals, name string) *replica {
	t.Helper()
	r := &replica{cmd: exec.Command(os.Args[0], "-test.run=^$")}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "SYRIAMAP_") {
			r.cmd.Env = append(r.cmd.Env, kv)
		}
	}
	args := []string{"serve", "--addr", "127.0.0.1:0", "--db", db, "--originals", originals, "--replica", name, "--trusted-proxy", "127.0.0.1"}
	r.cmd.Env = append(r.cmd.Env, "SYRIAMAP_DATA="+filepath.Join(filepath.Dir(originals), "data"), "SYRIAMAP_TEST_MAIN="+strings.Join(args, "\x1f"))
	r.cmd.Stderr = r
	out, err := r.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		r.cmd.Process.Signal(syscall.SIGINT)
		r.cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	r.url = regexp.MustCompile(`http://\S+/`).FindString(line)
	if err != nil || r.url == "" {
		t.Fatalf("replica %s: no start-up line (%v): %q\n%s", name, err, line, r.log())
	}
	go io.Copy(io.Discard, out)
	return r
}

// newTeamArchive makes a PostgreSQL archive of the samples with the
// editor rana, and the folder of originals its replicas share.
func newTeamArchive(t *testing.T) (db, originals string) {
	t.Helper()
	// The replicas' shared folders: originals, and data beside it.
	db, originals = pgtest.Database(t), filepath.Join(t.TempDir(), "originals")
	if err := os.Mkdir(originals, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCmd(t, "", "list", "--db", db); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCmd(t, "a long enough password\n", "users", "add", "--db", db, "--password-stdin", "rana"); err != nil {
		t.Fatal(err)
	}
	return db, originals
}

// answer is one HTTP answer as the replica tests read it.
type answer struct {
	status        int
	etag, replica string
	body          string
}

// send makes a request with the editor's session cookie (when not nil)
// and header pairs, and reads the answer whole; redirects are not
// followed. A request that fails is an answer of status 0.
func send(t *testing.T, method, u string, cookie *http.Cookie, body string, header ...string) answer {
	t.Helper()
	req, err := http.NewRequest(method, u, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if cookie != nil {
		req.AddCookie(cookie)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := noRedirects.Do(req)
	if err != nil {
		return answer{body: err.Error()}
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return answer{status: res.StatusCode, etag: res.Header.Get("ETag"), replica: res.Header.Get(middleware.ReplicaHeader), body: string(b)}
}

var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 30 * time.Second}

// signInAt signs rana in at base and returns the session's cookie.
func signInAt(t *testing.T, base string) *http.Cookie {
	t.Helper()
	req, _ := http.NewRequest("POST", base+"signin", strings.NewReader(url.Values{"name": {"rana"}, "password": {"a long enough password"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := noRedirects.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	for _, c := range res.Cookies() {
		if c.Name == session.Cookie && res.StatusCode == http.StatusSeeOther {
			return &http.Cookie{Name: c.Name, Value: c.Value}
		}
	}
	t.Fatalf("sign-in at %s: %s, no session cookie", base, res.Status)
	return nil
}

// csrfOf reads the session's CSRF token from a page base answers the
// signed-in editor; "" when the page shows nobody signed in.
func csrfOf(t *testing.T, base string, cookie *http.Cookie) string {
	t.Helper()
	page := send(t, "GET", base+"about", cookie, "").body
	i := strings.Index(page, `name="csrf" value="`)
	if i < 0 || !strings.Contains(page, "Signed in as") {
		return ""
	}
	token := page[i+len(`name="csrf" value="`):]
	return token[:strings.IndexByte(token, '"')]
}

// places are two places a correction moves a photo between.
var places = [2]string{"gn:169897", "ocha:C2320"} // Harasta, Zamalka

// place moves photo id to places[i%2] through base, as the editor, and
// returns the answer and what the photo's answers hold after it.
func place(t *testing.T, base, id string, i int, cookie *http.Cookie, csrf string) (answer, string) {
	t.Helper()
	body := fmt.Sprintf(`{"place_id": %q, "note": "correction %d: the agency's caption names it"}`, places[i%2], i)
	got := send(t, "PUT", base+"api/photos/"+id+"/placement", cookie, body, "Content-Type", "application/json", session.CSRFHeader, csrf)
	return got, fmt.Sprintf(`"place_id":%q`, places[i%2])
}

// placeOf reads the place_id of photo id in a GeoJSON answer (a Feature
// or a FeatureCollection); "" when it is not there.
func placeOf(body, id string) string {
	type feature struct {
		ID         string `json:"id"`
		Properties struct {
			PlaceID string `json:"place_id"`
		} `json:"properties"`
	}
	var v struct {
		feature
		Features []feature `json:"features"`
	}
	if json.Unmarshal([]byte(body), &v) != nil {
		return ""
	}
	for _, f := range append(v.Features, v.feature) {
		if f.ID == id {
			return f.Properties.PlaceID
		}
	}
	return ""
}

// firstPhoto is the id of the first photo base lists.
func firstPhoto(t *testing.T, base string) string {
	t.Helper()
	var fc struct {
		Features []struct{ ID string } `json:"features"`
	}
	if err := json.Unmarshal([]byte(send(t, "GET", base+"api/photos.geojson", nil, "").body), &fc); err != nil || len(fc.Features) == 0 {
		t.Fatalf("no photo listed at %s: %v", base, err)
	}
	return fc.Features[0].ID
}

// waitUntil polls cond until it holds, for at most limit, and reports
// whether it did.
func waitUntil(limit time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(limit)
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		<-tick.C
	}
	return true
}

// TestReplicas (issue 71, 3): two `syriamap serve` processes of the
// binary on one PostgreSQL archive, as the README's team server runs
// them. An editor signed in through A is signed in through B with the
// same cookie, and B takes A's CSRF token; each of 100 corrections
// through A is seen through B — the photo's and the list's ETags move
// and their answers change — and how long that took is logged (p99;
// the target is 1 s); a correction through B moves A's photo and
// facets; a wrong password through A brakes the client through B.
func TestReplicas(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two servers on PostgreSQL")
	}
	db, originals := newTeamArchive(t)
	a, b := startReplica(t, db, originals, "a"), startReplica(t, db, originals, "b")
	cookie := signInAt(t, a.url)
	csrf := csrfOf(t, a.url, cookie)
	if csrf == "" || csrfOf(t, b.url, cookie) != csrf {
		t.Fatalf("signed in through A, B does not show the same session (token %q)", csrf)
	}
	id := firstPhoto(t, b.url)
	photoURL, listURL := b.url+"api/photos/"+id+".geojson", b.url+"api/photos.geojson"
	// The photo is at places[1] before the first correction moves it.
	if got, _ := place(t, a.url, id, 1, cookie, csrf); got.status != http.StatusOK {
		t.Fatalf("a correction through A: %d %s\n%s", got.status, got.body, a.log())
	}
	// Readers keep asking B all along, as they would a live server: what B
	// keeps between questions (its versions, its caches) is then always
	// warm, and a correction is seen only when B learns of it.
	done := make(chan struct{})
	var reading sync.WaitGroup
	reading.Add(1)
	defer reading.Wait()
	defer close(done)
	go func() {
		defer reading.Done()
		for {
			select {
			case <-done:
				return
			default:
				send(t, "GET", listURL+"?agency=REUTERS", nil, "")
			}
		}
	}()
	const edits = 100
	// How long until B shows a correction: its photo and the list (which
	// follow B's reading of the archive's versions, trusted for half a
	// second), and its photo alone (read anew), from A's answer; the
	// photo and the list from the request to A.
	var seen, photoSeen, sent []time.Duration
	for i := range edits {
		photoBefore, listBefore := send(t, "GET", photoURL, nil, ""), send(t, "GET", listURL, nil, "")
		asked := time.Now()
		got, want := place(t, a.url, id, i, cookie, csrf)
		if got.status != http.StatusOK || !strings.Contains(got.body, want) {
			t.Fatalf("correction %d through A: %d %s\n%s", i, got.status, got.body, a.log())
		}
		written := time.Now()
		var photoNow, listNow answer
		var photoAt time.Duration
		if !waitUntil(10*time.Second, func() bool {
			photoNow, listNow = send(t, "GET", photoURL, nil, ""), send(t, "GET", listURL, nil, "")
			if photoAt == 0 && placeOf(photoNow.body, id) == places[i%2] {
				photoAt = time.Since(written)
			}
			return placeOf(photoNow.body, id) == places[i%2] && placeOf(listNow.body, id) == places[i%2]
		}) {
			t.Fatalf("correction %d through A is not seen through B in 10 s: the photo at %q, in the list at %q", i,
				placeOf(photoNow.body, id), placeOf(listNow.body, id))
		}
		seen, sent, photoSeen = append(seen, time.Since(written)), append(sent, time.Since(asked)), append(photoSeen, photoAt)
		if photoNow.etag == "" || photoNow.etag == photoBefore.etag || listNow.etag == "" || listNow.etag == listBefore.etag {
			t.Errorf("correction %d: B's ETags for the photo (%q, was %q) and the list (%q, was %q) did not both move", i,
				photoNow.etag, photoBefore.etag, listNow.etag, listBefore.etag)
		}
	}
	for _, d := range []struct {
		from string
		took []time.Duration
	}{{"its photo and the list, from A's answer", seen}, {"its photo alone, from A's answer", photoSeen}, {"its photo and the list, from the request to A", sent}} {
		slices.Sort(d.took)
		t.Logf("a correction through A seen through B, %s, over %d: p50 %v, p99 %v, max %v", d.from, edits,
			d.took[edits/2].Round(time.Millisecond), d.took[edits*99/100-1].Round(time.Millisecond), d.took[edits-1].Round(time.Millisecond))
	}
	// A correction through B with the session A started is seen through
	// A, in its facets too.
	facetsURL := a.url + "api/facets?field=place"
	facetsBefore := send(t, "GET", facetsURL, nil, "")
	got, _ := place(t, b.url, id, edits, cookie, csrf)
	want := places[edits%2]
	if got.status != http.StatusOK {
		t.Fatalf("a correction through B with A's session: %d %s", got.status, got.body)
	}
	if !waitUntil(10*time.Second, func() bool {
		return placeOf(send(t, "GET", a.url+"api/photos/"+id+".geojson", nil, "").body, id) == want
	}) {
		t.Error("a correction through B is not seen through A")
	}
	if !waitUntil(10*time.Second, func() bool {
		now := send(t, "GET", facetsURL, nil, "")
		return now.status == http.StatusOK && now.etag != facetsBefore.etag && now.body != facetsBefore.body
	}) {
		t.Error("a correction through B does not change A's facets")
	}
	// One brake: a wrong password through A, and the right one at once
	// through B waits.
	wrong := send(t, "POST", a.url+"signin", nil, url.Values{"name": {"rana"}, "password": {"not the password at all"}}.Encode(),
		"Content-Type", "application/x-www-form-urlencoded")
	right := send(t, "POST", b.url+"signin", nil, url.Values{"name": {"rana"}, "password": {"a long enough password"}}.Encode(),
		"Content-Type", "application/x-www-form-urlencoded")
	if wrong.status != http.StatusUnauthorized || right.status != http.StatusTooManyRequests {
		t.Errorf("a wrong password through A (%d), then the right one through B: %d, want 429", wrong.status, right.status)
	}
}

// haproxyConfig is the README's HAProxy configuration for a team server.
const haproxyConfig = "testdata/haproxy.cfg"

// TestLoadBalancer (issue 71, 3 and 7): the README's HAProxy
// configuration, run by the real haproxy in front of two replicas of
// the binary on one PostgreSQL archive: requests are spread over both;
// a signed-in editor's corrections through the balancer all succeed,
// whichever replica takes them; a replica killed with SIGKILL leaves
// the balancer answering every request from the other. The README shows
// the file the test runs.
func TestLoadBalancer(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two servers and haproxy")
	}
	bin := haproxyBinary(t)
	cfg, err := os.ReadFile(haproxyConfig)
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "```\n"+string(cfg)+"```\n") {
		t.Errorf("the README's section \"A team server\" does not show %s as it is", haproxyConfig)
	}
	db, originals := newTeamArchive(t)
	a, b := startReplica(t, db, originals, "a"), startReplica(t, db, originals, "b")
	front := balance(t, bin, string(cfg), a, b)

	// Requests are spread over both replicas.
	if !waitUntil(30*time.Second, func() bool { return send(t, "GET", front+"about", nil, "").status == http.StatusOK }) {
		t.Fatal("the balancer does not answer")
	}
	served := map[string]int{}
	for range 20 {
		got := send(t, "GET", front+"api/photos.geojson", nil, "")
		if got.status != http.StatusOK {
			t.Fatalf("through the balancer: %d %s", got.status, got.body)
		}
		served[got.replica]++
	}
	if served["a"] == 0 || served["b"] == 0 {
		t.Errorf("20 requests through the balancer were answered by %v; want both replicas", served)
	}
	// A signed-in editor's corrections, wherever they land, all succeed.
	cookie := signInAt(t, front)
	csrf := csrfOf(t, front, cookie)
	id := firstPhoto(t, front)
	wrote := map[string]int{}
	for i := range 20 {
		got, _ := place(t, front, id, i, cookie, csrf)
		if got.status != http.StatusOK {
			t.Fatalf("correction %d through the balancer (replica %q): %d %s", i, got.replica, got.status, got.body)
		}
		wrote[got.replica]++
	}
	if wrote["a"] == 0 || wrote["b"] == 0 {
		t.Errorf("20 corrections through the balancer were taken by %v; want both replicas", wrote)
	}
	// Kill a replica as a crash would: every request is answered, by b.
	if err := a.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	a.cmd.Wait()
	for i := range 40 {
		got := send(t, "GET", front+"api/photos.geojson", nil, "")
		if got.status != http.StatusOK || got.replica != "b" {
			t.Fatalf("request %d after replica a was killed: %d from %q %s", i, got.status, got.replica, got.body)
		}
	}
	if got, _ := place(t, front, id, 0, cookie, csrf); got.status != http.StatusOK || got.replica != "b" {
		t.Errorf("a correction after replica a was killed: %d from %q", got.status, got.replica)
	}
	// With no replica left, the balancer says so as a replica would: 503,
	// and when to try again.
	if err := b.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	b.cmd.Wait()
	res, err := noRedirects.Get(front + "api/photos.geojson")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" {
		t.Errorf("with no replica: %s, Retry-After %q; want 503 with Retry-After", res.Status, res.Header.Get("Retry-After"))
	}
}

// haproxyBinary finds haproxy (Debian keeps it in /usr/sbin); without it
// the test is skipped, except in CI, which must install it (.ci/run).
func haproxyBinary(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"haproxy", "/usr/sbin/haproxy"} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("haproxy is not installed; CI must install it (.ci/run)")
	}
	t.Skip("haproxy is not installed (apt-get install haproxy): the README's load balancer is not tested")
	return ""
}

// balance runs haproxy with cfg in front of replicas a and b, at the
// addresses the test has (the file names 127.0.0.1:8080, 8081 and 8082),
// logging to the test's output on failure; it returns the balancer's URL.
func balance(t *testing.T, bin, cfg string, a, b *replica) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	hostOf := func(u string) string { return strings.TrimSuffix(strings.TrimPrefix(u, "http://"), "/") }
	// haproxy checks each replica's /healthz: it must answer on PostgreSQL.
	if got := send(t, "GET", a.url+"healthz", nil, ""); got.status != http.StatusOK {
		t.Fatalf("/healthz answers %d on PostgreSQL: %s", got.status, strings.TrimSpace(got.body))
	}
	cfg = strings.NewReplacer("127.0.0.1:8080", fmt.Sprintf("127.0.0.1:%d", port), "127.0.0.1:8081", hostOf(a.url), "127.0.0.1:8082", hostOf(b.url)).Replace(cfg)
	path := filepath.Join(t.TempDir(), "haproxy.cfg")
	if err := os.WriteFile(path, []byte("global\n\tlog stderr format raw daemon\n\n"+cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-db", "-f", path)
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
		if t.Failed() {
			t.Logf("haproxy:\n%s\nreplica a:\n%s\nreplica b:\n%s", logs.String(), a.log(), b.log())
		}
	})
	return fmt.Sprintf("http://127.0.0.1:%d/", port)
}

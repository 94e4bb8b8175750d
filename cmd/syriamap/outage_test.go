package main

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/syriamap/syriamap/internal/pgtest"
)

// TestReplicasThroughAnOutage (issue 71, 6): two replicas on a PostgreSQL
// server that is killed and comes back. While it is down each replica
// answers 503 with Retry-After (never another error, never a photo's old
// place), a write is refused whole, and once it is back both answer
// again, each with the last write made before it went (a correction
// through A); a write is taken again within seconds. How long each took
// is logged.
func TestReplicasThroughAnOutage(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two servers on PostgreSQL")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := pgtest.Start(ctx) // its own: the package's cluster is not to be killed
	if err != nil {
		t.Fatal(err)
	}
	defer c.Stop()
	db := c.URL + "postgres"
	if _, _, err := runCmd(t, "", "list", "--db", db); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCmd(t, "a long enough password\n", "users", "add", "--db", db, "--password-stdin", "rana"); err != nil {
		t.Fatal(err)
	}
	originals := filepath.Join(t.TempDir(), "originals")
	if err := os.Mkdir(originals, 0o755); err != nil {
		t.Fatal(err)
	}
	a, b := startReplica(t, db, originals, "a"), startReplica(t, db, originals, "b")
	cookie := signInAt(t, a.url)
	csrf := csrfOf(t, a.url, cookie)
	id := firstPhoto(t, a.url)
	// The last write before the outage, seen through both.
	got, want := place(t, a.url, id, 0, cookie, csrf)
	if got.status != http.StatusOK {
		t.Fatalf("a correction through A: %d %s", got.status, got.body)
	}
	replicas := []*replica{a, b}
	for _, r := range replicas {
		if !waitUntil(10*time.Second, func() bool {
			return placeOf(send(t, "GET", r.url+"api/photos/"+id+".geojson", nil, "").body, id) == want[len(`"place_id":"`):len(want)-1]
		}) {
			t.Fatalf("the correction is not seen through %s", r.url)
		}
	}
	wantPlace := want[len(`"place_id":"`) : len(want)-1]

	c.Kill()
	// Every answer while it is down is the photo at its last place, or a
	// 503 saying when to try again; each replica comes to the 503.
	for _, r := range replicas {
		down := waitUntil(30*time.Second, func() bool {
			ans := send(t, "GET", r.url+"api/photos/"+id+".geojson", nil, "")
			switch {
			case ans.status == http.StatusServiceUnavailable:
				return true
			case ans.status == http.StatusOK && placeOf(ans.body, id) == wantPlace:
				return false
			}
			t.Fatalf("while the database is down, %s answered %d: %.200s", r.url, ans.status, ans.body)
			return false
		})
		if !down {
			t.Fatalf("%s never said the archive is unavailable while it was down", r.url)
		}
		// A list is answered from what the replica keeps while its last
		// reading of the archive's versions is trusted (half a second):
		// then it too says the archive is unavailable, and when to retry.
		if !waitUntil(10*time.Second, func() bool {
			res, err := http.Get(r.url + "api/photos.geojson?limit=1")
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusOK && res.StatusCode != http.StatusServiceUnavailable {
				t.Fatalf("a list from %s while down: %d", r.url, res.StatusCode)
			}
			return res.StatusCode == http.StatusServiceUnavailable && res.Header.Get("Retry-After") != ""
		}) {
			t.Errorf("%s lists photos while the database is down; want 503 with Retry-After", r.url)
		}
	}
	if got, _ := place(t, b.url, id, 1, cookie, csrf); got.status != http.StatusServiceUnavailable {
		t.Errorf("a correction while the database is down: %d %s; want 503", got.status, got.body)
	}

	if err := c.Restart(ctx); err != nil {
		t.Fatal(err)
	}
	back := time.Now()
	for _, r := range replicas {
		if !waitUntil(30*time.Second, func() bool {
			ans := send(t, "GET", r.url+"api/photos/"+id+".geojson", nil, "")
			if ans.status == http.StatusOK && placeOf(ans.body, id) != wantPlace {
				t.Fatalf("after the outage %s answers the photo at %q, not its last place %q", r.url, placeOf(ans.body, id), wantPlace)
			}
			return ans.status == http.StatusOK
		}) {
			t.Fatalf("%s does not answer 30 s after the database came back", r.url)
		}
		t.Logf("%s answers again %.2f s after the database came back", r.url, time.Since(back).Seconds())
	}
	// A write may meet a connection the outage broke, and be told to
	// try again (503, Retry-After); within seconds it is taken.
	var last answer
	if !waitUntil(5*time.Second, func() bool {
		last, _ = place(t, b.url, id, 1, cookie, csrf)
		if last.status != http.StatusOK && last.status != http.StatusServiceUnavailable {
			t.Fatalf("a correction after the outage: %d %s", last.status, last.body)
		}
		return last.status == http.StatusOK
	}) {
		t.Errorf("a correction 5 s after the database came back: %d %s", last.status, last.body)
	}
	t.Logf("a correction is taken %.2f s after the database came back", time.Since(back).Seconds())
}

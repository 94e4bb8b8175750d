package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/syriamap/syriamap/internal/photo"
)

// TestJobLeases (issue 71, 4): a queued job is claimed by one server for
// a lease; another server finds nothing to claim while the lease holds,
// and claims it once it ran out (its server dead), counting a second
// attempt; the first server's writes are then refused, the second's
// finish it, and the job reads as done, with its result, from the
// archive. A job whose lease ran out after the last attempt fails,
// saying why.
func TestJobLeases(t *testing.T) {
	ctx := context.Background()
	db := open(t)
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	db.Now = func() time.Time { return now }
	if err := db.EnqueueJob(ctx, photo.QueuedJob{ID: "j1", Kind: "import", Owner: "rana", Payload: `{"files":1}`}); err != nil {
		t.Fatal(err)
	}
	claim := func(holder string) (photo.QueuedJob, bool) {
		t.Helper()
		j, ok, err := db.ClaimJob(ctx, "import", holder, time.Minute, 3)
		if err != nil {
			t.Fatal(err)
		}
		return j, ok
	}
	if _, ok, _ := db.ClaimJob(ctx, "frames", "a", time.Minute, 3); ok {
		t.Error("a job of another kind was claimed")
	}
	j, ok := claim("a")
	if !ok || j.ID != "j1" || j.State != photo.JobRunning || j.Attempts != 1 || j.Holder != "a" || j.Payload != `{"files":1}` || !j.LeaseUntil.Equal(now.Add(time.Minute)) {
		t.Fatalf("the first claim: %+v %v", j, ok)
	}
	if _, ok := claim("b"); ok {
		t.Error("b claimed a job a holds")
	}
	now = now.Add(50 * time.Second)
	if err := db.ExtendJob(ctx, "j1", "a", time.Minute, `{"done":1}`); err != nil {
		t.Fatal(err)
	}
	now = now.Add(50 * time.Second) // within the extended lease
	if _, ok := claim("b"); ok {
		t.Error("b claimed a job whose lease a extended")
	}
	if _, ok := claim("a"); ok {
		t.Error("a claimed its own job again")
	}
	now = now.Add(time.Minute) // a is gone
	j, ok = claim("b")
	if !ok || j.ID != "j1" || j.Attempts != 2 || j.Holder != "b" || j.Result != `{"done":1}` {
		t.Fatalf("the claim after a's lease ran out: %+v %v", j, ok)
	}
	if err := db.ExtendJob(ctx, "j1", "a", time.Minute, ""); !errors.Is(err, ErrLeaseLost) {
		t.Errorf("a's heartbeat after b took it: %v", err)
	}
	if err := db.FinishJob(ctx, "j1", "a", photo.JobDone, `{"by":"a"}`, ""); !errors.Is(err, ErrLeaseLost) {
		t.Errorf("a's finish after b took it: %v", err)
	}
	if err := db.FinishJob(ctx, "j1", "b", photo.JobDone, `{"by":"b"}`, ""); err != nil {
		t.Fatal(err)
	}
	got, err := db.Job(ctx, "j1")
	if err != nil || got.State != photo.JobDone || got.Result != `{"by":"b"}` || got.Owner != "rana" || !got.Created.Equal(time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)) {
		t.Errorf("the job as read: %+v %v", got, err)
	}
	if _, ok := claim("c"); ok {
		t.Error("a finished job was claimed")
	}
	if _, err := db.Job(ctx, "nope"); photo.ErrorCode(err) != photo.ENotFound {
		t.Errorf("no such job: %v", err)
	}
}

// TestJobAttempts (issue 71, 4): a job whose servers die each time it
// runs is claimed maxAttempts times, then fails saying why, and is no
// longer claimed; the jobs list by owner and state, and the finished
// are forgotten.
func TestJobAttempts(t *testing.T) {
	ctx := context.Background()
	db := open(t)
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	db.Now = func() time.Time { return now }
	claim := func(holder string) (photo.QueuedJob, bool) {
		t.Helper()
		j, ok, err := db.ClaimJob(ctx, "import", holder, time.Minute, 3)
		if err != nil {
			t.Fatal(err)
		}
		return j, ok
	}
	for _, j := range []photo.QueuedJob{{ID: "j1", Kind: "import", Owner: "rana", Payload: `{}`}, {ID: "j2", Kind: "import", Owner: "omar", Payload: `{}`}} {
		if err := db.EnqueueJob(ctx, j); err != nil {
			t.Fatal(err)
		}
	}
	if j, ok := claim("a"); !ok || db.FinishJob(ctx, j.ID, "a", photo.JobDone, "{}", "") != nil {
		t.Fatalf("j1: %+v", j)
	}
	// Three servers die in turn running j2: it fails, saying why.
	for i := range 3 {
		if j, ok := claim(fmt.Sprint("dead", i)); !ok || j.ID != "j2" || j.Attempts != i+1 {
			t.Fatalf("claim %d of j2: %+v %v", i+1, j, ok)
		}
		now = now.Add(2 * time.Minute)
	}
	if j, ok := claim("live"); ok {
		t.Errorf("j2 was claimed a fourth time: %+v", j)
	}
	got, err := db.Job(ctx, "j2")
	if err != nil || got.State != photo.JobFailed || !strings.Contains(got.Error, "started 3 times") {
		t.Errorf("j2 after three dead servers: %+v %v", got, err)
	}
	for _, c := range []struct {
		owner string
		open  bool
		want  string
	}{{"", false, "j1 j2"}, {"rana", false, "j1"}, {"omar", false, "j2"}, {"", true, ""}} {
		jobs, err := db.Jobs(ctx, "import", c.owner, c.open)
		var ids []string
		for _, j := range jobs {
			ids = append(ids, j.ID)
		}
		if err != nil || strings.Join(ids, " ") != c.want {
			t.Errorf("jobs of %q (open %v): %v %v, want %s", c.owner, c.open, ids, err, c.want)
		}
	}
	if n, err := db.ForgetJobs(ctx, "import", now.Add(time.Second)); err != nil || n != 2 {
		t.Errorf("forgetting the finished jobs: %d %v", n, err)
	}
}

// TestJobClaimedOnce (issue 71, 4): two servers on one archive (two
// opened stores) claiming side by side get every job, each exactly once.
func TestJobClaimedOnce(t *testing.T) {
	ctx := context.Background()
	path := archivePath(t, "a.db")
	var dbs [2]*DB
	for i := range dbs {
		db, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		dbs[i] = db
	}
	const n = 60
	for i := range n {
		if err := dbs[i%2].EnqueueJob(ctx, photo.QueuedJob{ID: fmt.Sprintf("j%02d", i), Kind: "import", Owner: "rana", Payload: "{}"}); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	claimed := map[string][]string{}
	var wg sync.WaitGroup
	for i, db := range dbs {
		for w := range 3 {
			holder := fmt.Sprintf("server%d.%d", i, w)
			wg.Go(func() {
				for {
					j, ok, err := db.ClaimJob(ctx, "import", holder, time.Hour, 3)
					if err != nil {
						t.Error(err)
						return
					}
					if !ok {
						return
					}
					mu.Lock()
					claimed[j.ID] = append(claimed[j.ID], holder)
					mu.Unlock()
					if err := db.FinishJob(ctx, j.ID, holder, photo.JobDone, "{}", ""); err != nil {
						t.Error(err)
					}
				}
			})
		}
	}
	wg.Wait()
	if len(claimed) != n {
		t.Errorf("%d jobs claimed, want %d", len(claimed), n)
	}
	for id, by := range claimed {
		if len(by) != 1 {
			t.Errorf("job %s claimed by %v", id, by)
		}
	}
}

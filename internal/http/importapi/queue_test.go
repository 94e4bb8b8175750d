package importapi

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/photo"
)

// TestJobReadsTheSameFromEveryServer (issue 71, 4): two servers of one
// archive and one uploads' folder; an upload through the first is
// answered by the second, its owner's alone, and done, as the first
// answers it.
func TestJobReadsTheSameFromEveryServer(t *testing.T) {
	h := newHarness(t, DefaultLimits, true)
	first := h.ts
	h.start(t, DefaultLimits) // a second server of the same archive
	second := h.ts
	h.ts = first
	res, body := h.post(t, "rana", [][2]string{{"a.csv", caption("Douma")}})
	if res.StatusCode != http.StatusAccepted {
		t.Fatalf("upload: %d %s", res.StatusCode, body)
	}
	loc := res.Header.Get("Location")
	h.ts = second
	job := h.wait(t, "rana", loc)
	if job.Summary == nil || job.Summary.Added != 1 || len(job.Photos) != 1 {
		t.Errorf("the job through the second server: %+v", job)
	}
	if res, _ := h.do(t, "omar", "GET", loc, nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("another editor's GET through the second server: %d, want 404", res.StatusCode)
	}
	h.ts = first
	_, a := h.do(t, "rana", "GET", loc, nil)
	h.ts = second
	_, b := h.do(t, "rana", "GET", loc, nil)
	if a != b {
		t.Errorf("the servers answer differently:\n%s\n%s", a, b)
	}
}

// TestJobOfADeadServerRunsOnce (issue 71, 4 and 6): a server dies in the
// middle of a job, after its import of a caption file and a picture and
// before it wrote the job done; another server runs the job again once
// the dead one's lease ran out. The job reads done, every photo is
// imported once (no custody record added by the second run), and the
// job's files are removed.
func TestJobOfADeadServerRunsOnce(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, DefaultLimits, true)
	h.stop() // no server runs jobs now
	id := newID()
	job := Job{ID: id, Editor: "rana", Created: time.Now().UTC(), State: "queued"}
	var p payload
	var paths []string
	for _, f := range []struct{ name, kind, body string }{{"a.csv", "captions", caption("Douma")}, {"b.jpg", "image", readFixture(t)}} {
		sum := sha256.Sum256([]byte(f.body))
		hexSum := hex.EncodeToString(sum[:])
		rel := filepath.Join("files", hexSum, id, f.name)
		path := filepath.Join(h.im.Dir(), rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(f.body), 0o600); err != nil {
			t.Fatal(err)
		}
		job.Files = append(job.Files, File{Name: f.name, Size: int64(len(f.body)), SHA256: hexSum, Kind: f.kind, State: "queued"})
		p.Paths = append(p.Paths, rel)
		paths = append(paths, path)
	}
	p.Job = job
	b, _ := json.Marshal(p)
	if err := h.a.EnqueueJob(ctx, photo.QueuedJob{ID: id, Kind: jobKind, Owner: "rana", Payload: string(b)}); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := h.a.ClaimJob(ctx, jobKind, "dead", time.Millisecond, maxAttempts); !ok || err != nil {
		t.Fatalf("the dead server's claim: %v %v", ok, err)
	}
	// What the dead server did before it died.
	as := photo.WithActor(photo.AsEditor(ctx, "rana"), "editor rana")
	if _, err := h.a.ImportFile(as, paths[0], "", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := h.a.ImportImages(archive.Adopting(as), paths[1:], nil, nil); err != nil {
		t.Fatal(err)
	}
	photos, err := h.a.PhotosOfFiles(ctx, paths, 10)
	if err != nil || len(photos) != 2 {
		t.Fatalf("the dead server's photos: %d %v", len(photos), err)
	}
	custody := map[string]int{}
	for _, ph := range photos {
		records, err := h.a.CustodyOf(ctx, ph.ID)
		if err != nil || len(records) == 0 {
			t.Fatalf("photo %s's custody: %d records, %v", ph.ID, len(records), err)
		}
		custody[ph.ID] = len(records)
	}

	h.start(t, DefaultLimits) // a live server
	got := h.wait(t, "rana", "/api/imports/"+id)
	if got.Summary == nil || got.Summary.Added != 0 || got.Summary.Unchanged != 2 || len(got.Photos) != 2 || got.Counts.Imported != 2 {
		t.Errorf("the job run again: %+v, summary %+v", got, got.Summary)
	}
	for pid, n := range custody {
		if records, _ := h.a.CustodyOf(ctx, pid); len(records) != n {
			t.Errorf("photo %s: %d custody records after the second run, %d before", pid, len(records), n)
		}
	}
	if left := files(filepath.Join(h.im.Dir(), "files")); len(left) != 0 {
		t.Errorf("the job's files are left: %v", left)
	}
	q, err := h.a.Job(ctx, id)
	if err != nil || q.Attempts != 2 || q.State != photo.JobDone {
		t.Errorf("the job in the queue: %+v %v", q, err)
	}
	if logs := h.logs.String(); !strings.Contains(logs, "running again a job") {
		t.Errorf("the log does not say the job ran again:\n%s", logs)
	}
}

// TestHeartbeatKeepsAJob (issue 71, 4): a job that runs longer than its
// lease is kept by its server's heartbeat: the other server of the
// archive never runs it too, however many leases it lasts; once let go
// it is done, claimed once, and reads done through the other server.
func TestHeartbeatKeepsAJob(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a := &heldImports{Queue: newArchive(t), let: make(chan struct{})}
	dir := t.TempDir()
	limits := DefaultLimits
	limits.Lease = time.Second
	var servers []*Imports
	for range 2 {
		im, err := New(ctx, a, dir, limits, nil)
		if err != nil {
			t.Fatal(err)
		}
		servers = append(servers, im)
	}
	path := filepath.Join(dir, "a.jpg")
	if err := os.WriteFile(path, []byte("jpeg"), 0o600); err != nil {
		t.Fatal(err)
	}
	job := &Job{ID: newID(), Editor: "rana", State: "queued", Files: []File{{Name: "a.jpg", Size: 4, SHA256: "a", Kind: "image", State: "queued", path: path}}}
	if _, err := servers[0].enqueue(ctx, job); err != nil {
		t.Fatal(err)
	}
	var first time.Time
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		q, err := a.Job(ctx, job.ID)
		if err != nil {
			t.Fatal(err)
		}
		if q.State == photo.JobRunning && first.IsZero() {
			first = q.LeaseUntil
		}
		if !first.IsZero() && q.LeaseUntil.After(first.Add(3*limits.Lease)) {
			break // extended past three leases
		}
		if time.Now().After(deadline) {
			t.Fatalf("the job's lease was not extended: %+v", q)
		}
	}
	if n := a.atOnce(); n != 1 {
		t.Errorf("the job's pictures were imported %d times while its server held it", n)
	}
	close(a.let)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		got, err := servers[1].Job(ctx, job.ID, "rana")
		if err != nil {
			t.Fatal(err)
		}
		if got.State == photo.JobDone {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the job did not finish: %+v", got)
		}
	}
	if q, _ := a.Job(ctx, job.ID); q.Attempts != 1 || a.atOnce() != 1 {
		t.Errorf("the job was claimed %d times, its import run %d", q.Attempts, a.atOnce())
	}
}

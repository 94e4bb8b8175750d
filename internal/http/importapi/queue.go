package importapi

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/syriamap/syriamap/internal/archive"
	"github.com/syriamap/syriamap/internal/photo"
)

// The jobs run from the archive's durable queue (archive.ClaimJob), not
// from this server's memory: a job is queued in the archive with what it
// needs (its files' paths under the uploads' folder, which every server
// of the archive must share), claimed by one server's worker, which says
// it is alive every third of its lease and writes its progress, and
// finished there with its answer. So GET /api/imports/{id} reads the same
// from every server, and a job whose server died (killed, its machine
// down) is run again by a live one once its lease ran out, at most
// maxAttempts times; run again it imports nothing twice (run).

const (
	// jobKind is the queue's name for an upload's import.
	jobKind = "import"
	// maxAttempts bounds the runs of a job whose server dies each time.
	maxAttempts = 3
	// DefaultLease is how long a server holds a job without word from
	// it: a tenth of it is about how long another takes it over after
	// it died, plus the lease.
	DefaultLease = 30 * time.Second
	// pollEvery is how often an idle worker asks the queue for a job
	// another server queued (its own it is told of at once).
	pollEvery = time.Second
)

// payload is a queued job as the queue keeps it: the job as first
// answered, and its files' paths (relative to the uploads' folder).
type payload struct {
	Job   Job      `json:"job"`
	Paths []string `json:"paths"`
}

// holderName names this server in the jobs it holds, for the logs: its
// host and process, and a random part new at each start.
func holderName() string {
	host, _ := os.Hostname()
	return fmt.Sprintf("%s/%d/%s", host, os.Getpid(), rand.Text()[:8])
}

// validJobID reports whether id is one newID gives, so that no id names
// a folder outside the uploads'.
func validJobID(id string) bool {
	b, err := hex.DecodeString(id)
	return err == nil && len(b) == 8 && strings.ToLower(id) == id
}

// enqueue queues job's import in the archive and tells a worker; it
// returns the job as queued.
func (im *Imports) enqueue(ctx context.Context, job *Job) (Job, error) {
	p := payload{Job: job.counted()}
	for _, f := range job.Files {
		rel, err := filepath.Rel(im.dir, f.path)
		if err != nil || strings.HasPrefix(rel, "..") {
			rel = f.path
		}
		p.Paths = append(p.Paths, rel)
	}
	b, err := json.Marshal(p)
	if err != nil {
		return Job{}, err
	}
	if err := im.archive.EnqueueJob(ctx, photo.QueuedJob{ID: job.ID, Kind: jobKind, Owner: job.Editor, Payload: string(b)}); err != nil {
		return Job{}, fmt.Errorf("uploads: queueing the import: %w", err)
	}
	select {
	case im.wake <- struct{}{}:
	default: // the workers are told already
	}
	return p.Job, nil
}

// jobOf is a claimed job as it runs: its payload's job, its files' paths.
func (im *Imports) jobOf(q photo.QueuedJob) (*Job, error) {
	var p payload
	if err := json.Unmarshal([]byte(q.Payload), &p); err != nil {
		return nil, err
	}
	job := &p.Job
	if len(p.Paths) != len(job.Files) {
		return nil, fmt.Errorf("%d paths for %d files", len(p.Paths), len(job.Files))
	}
	for i, rel := range p.Paths {
		if !filepath.IsAbs(rel) {
			rel = filepath.Join(im.dir, rel)
		}
		job.Files[i].path = rel
	}
	return job, nil
}

// Job answers job id, of editor, as the archive's queue holds it (the
// same from every server): another's is not found.
func (im *Imports) Job(ctx context.Context, id, editor string) (Job, error) {
	q, err := im.archive.Job(ctx, id)
	if (err == nil && q.Owner != editor) || photo.ErrorCode(err) == photo.ENotFound {
		return Job{}, photo.Errorf(photo.ENotFound, "no import job %q of yours (a job is kept for a day after it is done)", id)
	}
	if err != nil {
		return Job{}, err
	}
	return answerOf(q)
}

// answerOf is a queued job as GET /api/imports/{id} answers it: what its
// run wrote last, or as it was queued, in its state.
func answerOf(q photo.QueuedJob) (Job, error) {
	var job Job
	if q.Result != "" {
		if err := json.Unmarshal([]byte(q.Result), &job); err != nil {
			return Job{}, fmt.Errorf("uploads: job %s: %w", q.ID, err)
		}
	} else {
		var p payload
		if err := json.Unmarshal([]byte(q.Payload), &p); err != nil {
			return Job{}, fmt.Errorf("uploads: job %s: %w", q.ID, err)
		}
		job = p.Job
	}
	job.State = q.State
	if q.State == photo.JobFailed {
		job.Error = q.Error
	}
	return job.counted(), nil
}

// snapshot is job as it stands, as its answer's JSON.
func (im *Imports) snapshot(job *Job) string {
	im.mu.Lock()
	defer im.mu.Unlock()
	b, err := json.Marshal(job.counted())
	if err != nil {
		return ""
	}
	return string(b)
}

// work runs the archive's queued imports, one at a time, as their
// editors (New starts jobsAtOnce of it), until ctx is done.
func (im *Imports) work(ctx context.Context) {
	poll := time.NewTicker(min(pollEvery, im.limits.Lease/3))
	defer poll.Stop()
	failing := false // said once while the archive cannot be asked
	for {
		q, ok, err := im.archive.ClaimJob(ctx, jobKind, im.holder, im.limits.Lease, maxAttempts)
		switch {
		case err != nil && ctx.Err() == nil && !failing:
			im.log.Warn("uploads: the queue of jobs cannot be read; asking again every second", "err", err)
			failing = true
		case err == nil && failing:
			im.log.Info("uploads: the queue of jobs can be read again")
			failing = false
		}
		if ok {
			im.runClaimed(ctx, q)
			continue
		}
		select {
		case <-ctx.Done():
			return
		case <-im.wake:
		case <-poll.C:
		}
	}
}

// runClaimed runs a job this server claimed, saying it is alive while it
// runs, and finishes it in the queue, then removes its files. A job whose
// lease this server lost (another took it), or whose run ctx stopped, is
// left to the queue: another server, or the next start, runs it again.
func (im *Imports) runClaimed(ctx context.Context, q photo.QueuedJob) {
	job, err := im.jobOf(q)
	if err != nil {
		im.log.Error("uploads: a queued job cannot be read", "job", q.ID, "err", err)
		im.archive.FinishJob(ctx, q.ID, im.holder, photo.JobFailed, "", "its record in the queue cannot be read")
		return
	}
	if q.Attempts > 1 {
		im.log.Warn("uploads: running again a job whose server stopped before it was done", "job", q.ID, "editor", q.Owner, "attempt", q.Attempts)
	}
	jctx, lost := context.WithCancel(ctx)
	defer lost()
	beat, stop := context.WithCancel(jctx)
	beating := make(chan struct{})
	go func() {
		defer close(beating)
		im.heartbeat(beat, lost, job)
	}()
	job.State = photo.JobRunning
	im.run(jctx, job)
	stop()
	<-beating
	if jctx.Err() != nil {
		return
	}
	err = im.archive.FinishJob(ctx, job.ID, im.holder, photo.JobDone, im.snapshot(job), "")
	switch {
	case errors.Is(err, archive.ErrLeaseLost):
		im.log.Warn("uploads: another server took over a job this one ran", "job", job.ID)
		return
	case err != nil:
		im.log.Error("uploads: writing a job done", "job", job.ID, "err", err)
		return // run again once its lease runs out: it imports nothing twice
	}
	im.release(job)
}

// heartbeat extends this server's lease of job every third of it, with
// its progress, until ctx is done; when another server holds it now, it
// stops the job's run (lost).
func (im *Imports) heartbeat(ctx context.Context, lost context.CancelFunc, job *Job) {
	t := time.NewTicker(im.limits.Lease / 3)
	defer t.Stop()
	for {
		err := im.archive.ExtendJob(ctx, job.ID, im.holder, im.limits.Lease, im.snapshot(job))
		switch {
		case ctx.Err() != nil:
			return
		case errors.Is(err, archive.ErrLeaseLost):
			im.log.Warn("uploads: another server took over a job this one runs; stopping it here", "job", job.ID)
			lost()
			return
		case err != nil:
			im.log.Warn("uploads: extending a job's lease", "job", job.ID, "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

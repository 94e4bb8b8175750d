package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/syriamap/syriamap/internal/photo"
)

// The jobs' queue (migrations/0036_jobs.sql): the server's long work, kept
// in the archive so that any server of it runs a job and answers its
// state. A server claims a queued job for a lease (ClaimJob), extends it
// while it runs (ExtendJob) and finishes it (FinishJob); a job whose lease
// ran out, its server dead, is claimed again by another, until it has been
// claimed maxAttempts times, when it fails saying so. The statements are
// single statements on the queue's connections (DB.queue), outside any
// transaction of the archive's.

// ErrLeaseLost is the error of a job's write by a server that no longer
// holds it: its lease ran out and another server claimed it, or it is
// finished.
var ErrLeaseLost = photo.Errorf(photo.EConflict, "the job is no longer this server's: its lease ran out and another server took it")

// jobColumns are a job's columns as scanJob reads them.
const jobColumns = `id, kind, owner, state, payload, result, error, attempts, holder, lease_until, created, updated`

// jobTime is how a job's times are written: sorted as text, to the
// millisecond.
const jobTime = "2006-01-02T15:04:05.000Z"

// queuer is the connection pool the queue writes with.
func (s *DB) queuer() (*sql.DB, error) {
	if s.queue != nil {
		return s.queue, nil
	}
	return s.writer()
}

func (s *DB) jobNow() (time.Time, string) {
	now := s.Now().UTC()
	return now, now.Format(jobTime)
}

// EnqueueJob queues job: its ID (new), Kind, Owner and Payload; the rest
// is the queue's. It is queued once it returns.
func (s *DB) EnqueueJob(ctx context.Context, job photo.QueuedJob) error {
	q, err := s.queuer()
	if err != nil {
		return err
	}
	_, now := s.jobNow()
	if _, err := q.ExecContext(ctx, `INSERT INTO jobs (id, kind, owner, state, payload, created, updated) VALUES (?, ?, ?, 'queued', ?, ?, ?)`,
		job.ID, job.Kind, job.Owner, job.Payload, now, now); err != nil {
		return fmt.Errorf("store: queueing job %s: %w", job.ID, s.writeErr(err))
	}
	return nil
}

// ClaimJob gives holder the oldest job of kind that is queued, or running
// under a lease that ran out and another holder's (a server that is gone;
// holder's own are still running here), for lease; ok is false when there
// is none. Each claim counts an attempt; a job that ran out of its lease
// after maxAttempts of them is failed instead, saying so. Two servers
// claiming at once never get the same job.
func (s *DB) ClaimJob(ctx context.Context, kind, holder string, lease time.Duration, maxAttempts int) (job photo.QueuedJob, ok bool, err error) {
	q, err := s.queuer()
	if err != nil {
		return job, false, err
	}
	t, now := s.jobNow()
	why := fmt.Sprintf("it was started %d times, and each time the server running it stopped before it was done", maxAttempts)
	if _, err := q.ExecContext(ctx, `UPDATE jobs SET state = 'failed', error = ?, updated = ?
		WHERE kind = ? AND state = 'running' AND lease_until < ? AND holder <> ? AND attempts >= ?`,
		why, now, kind, t.UnixMilli(), holder, maxAttempts); err != nil {
		return job, false, fmt.Errorf("store: failing the jobs tried too often: %w", s.writeErr(err))
	}
	row := q.QueryRowContext(ctx, `UPDATE jobs SET state = 'running', holder = ?, lease_until = ?, attempts = attempts + 1, updated = ?
		WHERE id = (SELECT id FROM jobs WHERE kind = ? AND (state = 'queued' OR (state = 'running' AND lease_until < ? AND holder <> ?))
			ORDER BY created, id LIMIT 1`+s.sql().claimLock+`)
		RETURNING `+jobColumns,
		holder, t.Add(lease).UnixMilli(), now, kind, t.UnixMilli(), holder)
	job, err = scanJob(row)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return job, false, nil
	case err != nil:
		return job, false, fmt.Errorf("store: claiming a job: %w", s.writeErr(err))
	}
	return job, true, nil
}

// ExtendJob extends holder's lease of job id to lease from now, writing
// result as what it has done so far ("" keeps what was written);
// ErrLeaseLost when holder no longer holds it.
func (s *DB) ExtendJob(ctx context.Context, id, holder string, lease time.Duration, result string) error {
	q, err := s.queuer()
	if err != nil {
		return err
	}
	t, now := s.jobNow()
	res, err := q.ExecContext(ctx, `UPDATE jobs SET lease_until = ?, updated = ?, result = CASE WHEN ? = '' THEN result ELSE ? END
		WHERE id = ? AND holder = ? AND state = 'running'`, t.Add(lease).UnixMilli(), now, result, result, id, holder)
	return s.heldJob(res, err, id)
}

// FinishJob ends holder's job id as state (photo.JobDone or JobFailed),
// with its result and, when failed, why; ErrLeaseLost when holder no
// longer holds it (what it did is then not written).
func (s *DB) FinishJob(ctx context.Context, id, holder, state, result, why string) error {
	if state != photo.JobDone && state != photo.JobFailed {
		return fmt.Errorf("store: a job finishes done or failed, not %q", state)
	}
	q, err := s.queuer()
	if err != nil {
		return err
	}
	_, now := s.jobNow()
	res, err := q.ExecContext(ctx, `UPDATE jobs SET state = ?, result = ?, error = ?, lease_until = 0, updated = ?
		WHERE id = ? AND holder = ? AND state = 'running'`, state, result, why, now, id, holder)
	return s.heldJob(res, err, id)
}

// heldJob is the outcome of a write of a held job.
func (s *DB) heldJob(res sql.Result, err error, id string) error {
	if err != nil {
		return fmt.Errorf("store: writing job %s: %w", id, s.writeErr(err))
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return ErrLeaseLost
	}
	return nil
}

// Job reads job id; not found (photo.ENotFound) when there is none.
func (s *DB) Job(ctx context.Context, id string) (photo.QueuedJob, error) {
	var job photo.QueuedJob
	err := s.reading(ctx, "", "reading a job", func(ctx context.Context) error {
		var err error
		job, err = scanJob(s.read.QueryRowContext(ctx, `SELECT `+jobColumns+` FROM jobs WHERE id = ?`, id))
		return err
	})
	if errors.Is(err, sql.ErrNoRows) {
		return job, photo.Errorf(photo.ENotFound, "no job %q", id)
	}
	return job, err
}

// Jobs lists the jobs of kind, oldest first: owner's ("" for everyone's),
// and only those not finished when open.
func (s *DB) Jobs(ctx context.Context, kind, owner string, open bool) ([]photo.QueuedJob, error) {
	var out []photo.QueuedJob
	err := s.reading(ctx, "", "listing jobs", func(ctx context.Context) error {
		rows, err := s.read.QueryContext(ctx, `SELECT `+jobColumns+` FROM jobs
			WHERE kind = ? AND (? = '' OR owner = ?) AND (? = 0 OR state IN ('queued', 'running')) ORDER BY created, id`,
			kind, owner, owner, open)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			job, err := scanJob(rows)
			if err != nil {
				return err
			}
			out = append(out, job)
		}
		return rows.Err()
	})
	return out, err
}

// ForgetJobs removes the jobs of kind finished before before; it returns
// how many.
func (s *DB) ForgetJobs(ctx context.Context, kind string, before time.Time) (int, error) {
	q, err := s.queuer()
	if err != nil {
		return 0, err
	}
	res, err := q.ExecContext(ctx, `DELETE FROM jobs WHERE kind = ? AND state IN ('done', 'failed') AND updated < ?`,
		kind, before.UTC().Format(jobTime))
	if err != nil {
		return 0, fmt.Errorf("store: forgetting finished jobs: %w", s.writeErr(err))
	}
	n, err := res.RowsAffected()
	return int(n), err
}

// scanJob reads a job's jobColumns.
func scanJob(row interface{ Scan(...any) error }) (photo.QueuedJob, error) {
	var j photo.QueuedJob
	var lease int64
	var created, updated string
	if err := row.Scan(&j.ID, &j.Kind, &j.Owner, &j.State, &j.Payload, &j.Result, &j.Error, &j.Attempts, &j.Holder, &lease, &created, &updated); err != nil {
		return j, err
	}
	j.LeaseUntil = time.UnixMilli(lease).UTC()
	j.Created, _ = time.Parse(jobTime, created)
	j.Updated, _ = time.Parse(jobTime, updated)
	return j, nil
}

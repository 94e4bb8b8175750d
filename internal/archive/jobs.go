package archive

import (
	"context"
	"time"

	"github.com/syriamap/syriamap/internal/photo"
	"github.com/syriamap/syriamap/internal/store"
)

// The archive's durable queue of the server's long work (store/jobs.go):
// any server of the archive claims a queued job, holds it for a lease it
// extends while it runs, and finishes it; a job whose server died is
// claimed again by another. Its state reads the same from every server.

// ErrLeaseLost is the error of a job's write by a server that no longer
// holds it.
var ErrLeaseLost = store.ErrLeaseLost

// EnqueueJob queues job (its ID, Kind, Owner and Payload).
func (a *Archive) EnqueueJob(ctx context.Context, job photo.QueuedJob) error {
	return a.db.EnqueueJob(ctx, job)
}

// ClaimJob gives holder the oldest claimable job of kind for lease (see
// store.DB.ClaimJob); ok is false when there is none.
func (a *Archive) ClaimJob(ctx context.Context, kind, holder string, lease time.Duration, maxAttempts int) (photo.QueuedJob, bool, error) {
	return a.db.ClaimJob(ctx, kind, holder, lease, maxAttempts)
}

// ExtendJob extends holder's lease of job id, writing what it did so far
// (result, "" to keep it); ErrLeaseLost when it no longer holds it.
func (a *Archive) ExtendJob(ctx context.Context, id, holder string, lease time.Duration, result string) error {
	return a.db.ExtendJob(ctx, id, holder, lease, result)
}

// FinishJob ends holder's job id as state (done or failed) with its
// result and why it failed; ErrLeaseLost when it no longer holds it.
func (a *Archive) FinishJob(ctx context.Context, id, holder, state, result, why string) error {
	return a.db.FinishJob(ctx, id, holder, state, result, why)
}

// Job reads job id (photo.ENotFound when there is none).
func (a *Archive) Job(ctx context.Context, id string) (photo.QueuedJob, error) {
	return a.db.Job(ctx, id)
}

// Jobs lists the jobs of kind, oldest first: owner's ("" for all), only
// the unfinished when open.
func (a *Archive) Jobs(ctx context.Context, kind, owner string, open bool) ([]photo.QueuedJob, error) {
	return a.db.Jobs(ctx, kind, owner, open)
}

// ForgetJobs removes the jobs of kind finished before before.
func (a *Archive) ForgetJobs(ctx context.Context, kind string, before time.Time) (int, error) {
	return a.db.ForgetJobs(ctx, kind, before)
}

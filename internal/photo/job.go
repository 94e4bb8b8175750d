package photo

import "time"

// QueuedJob is a piece of the server's long work (an upload's import) in
// the archive's durable queue: queued, claimed by one server, which holds
// it for a lease it extends while it runs, then done or failed. A job
// whose lease ran out (its server died) is claimed again, by any server,
// up to a bound of attempts.
type QueuedJob struct {
	ID    string
	Kind  string // what the job does ("import")
	Owner string // the editor it runs for
	// State is JobQueued, JobRunning, JobDone or JobFailed.
	State string
	// Payload is what the job needs (JSON, its kind's); Result what it
	// has done so far, or in all once done (JSON, "" before).
	Payload, Result string
	// Error says why a failed job failed.
	Error string
	// Attempts counts the claims: 1 once it first runs.
	Attempts int
	// Holder names the server that holds the job, until LeaseUntil.
	Holder     string
	LeaseUntil time.Time
	// Created and Updated are when it was queued and last written (UTC).
	Created, Updated time.Time
}

// The states of a queued job.
const (
	JobQueued  = "queued"
	JobRunning = "running"
	JobDone    = "done"
	JobFailed  = "failed"
)

-- The server's long work (an upload's import, …) as a durable queue: a
-- job is queued, claimed by one server for a lease it extends while it
-- runs, and finished; a job whose lease ran out (its server died) is
-- claimed again, at most a few times. Times: created and updated as
-- RFC 3339 text (UTC, milliseconds), lease_until in Unix milliseconds.
CREATE TABLE jobs (
	id          TEXT PRIMARY KEY,
	kind        TEXT NOT NULL,
	owner       TEXT NOT NULL,
	state       TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed')),
	payload     TEXT NOT NULL,
	result      TEXT NOT NULL DEFAULT '',
	error       TEXT NOT NULL DEFAULT '',
	attempts    INTEGER NOT NULL DEFAULT 0,
	holder      TEXT NOT NULL DEFAULT '',
	lease_until INTEGER NOT NULL DEFAULT 0,
	created     TEXT NOT NULL,
	updated     TEXT NOT NULL
);
CREATE INDEX jobs_claim ON jobs (kind, state, created);
CREATE INDEX jobs_owner ON jobs (owner, created);

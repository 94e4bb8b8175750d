-- The server's long work (an upload's import, …) as a durable queue: a
-- job is queued, claimed by one server for a lease it extends while it
-- runs, and finished; a job whose lease ran out (its server died) is
-- claimed again, at most a few times. Times: created and updated as
-- RFC 3339 text (UTC, milliseconds), lease_until in Unix milliseconds.
CREATE TABLE jobs (
	id          text PRIMARY KEY,
	kind        text NOT NULL,
	owner       text NOT NULL,
	state       text NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed')),
	payload     text NOT NULL,
	result      text NOT NULL DEFAULT '',
	error       text NOT NULL DEFAULT '',
	attempts    bigint NOT NULL DEFAULT 0,
	holder      text NOT NULL DEFAULT '',
	lease_until bigint NOT NULL DEFAULT 0,
	created     text NOT NULL,
	updated     text NOT NULL
);
CREATE INDEX jobs_claim ON jobs (kind, state, created);
CREATE INDEX jobs_owner ON jobs (owner, created);

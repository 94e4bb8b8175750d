-- The sign-in brake's records (auth.Brake), kept in the archive so that
-- every server on it brakes with one budget: a guesser gains nothing from
-- a load balancer that spreads their guesses over replicas. Times are
-- Unix nanoseconds.
--
-- A key's failed sign-ins ("addr:…", "device:…", "code:…", "name:…") and
-- when its wait ends.
CREATE TABLE signin_strikes (
	key        TEXT PRIMARY KEY,
	failures   INTEGER NOT NULL,
	wait_until INTEGER NOT NULL
);
CREATE INDEX signin_strikes_wait_until ON signin_strikes (wait_until);

-- The checked guesses at an editor name from browsers it has not signed
-- in from, by the time each was made (two may share one).
CREATE TABLE signin_guesses (
	name    TEXT NOT NULL,
	guessed INTEGER NOT NULL
);
CREATE INDEX signin_guesses_name ON signin_guesses (name, guessed);

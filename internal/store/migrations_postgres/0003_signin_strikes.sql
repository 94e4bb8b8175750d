-- The sign-in brake's records (auth.Brake): SQLite's 0037_signin_strikes.
CREATE TABLE signin_strikes (
	key        text PRIMARY KEY,
	failures   bigint NOT NULL,
	wait_until bigint NOT NULL
);
CREATE INDEX signin_strikes_wait_until ON signin_strikes (wait_until);

CREATE TABLE signin_guesses (
	name    text NOT NULL,
	guessed bigint NOT NULL
);
CREATE INDEX signin_guesses_name ON signin_guesses (name, guessed);

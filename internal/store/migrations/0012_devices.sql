-- Browsers that have signed in as an editor, by the SHA-256 of their
-- device cookie's secret: past the budget of guesses at a name from
-- unknown browsers, its password is checked only for these (auth.Brake).
CREATE TABLE devices (
	hash    TEXT PRIMARY KEY,
	user    TEXT NOT NULL REFERENCES users (name) ON DELETE CASCADE ON UPDATE CASCADE,
	created TEXT NOT NULL
);

-- Review by a team: editors and their sign-in, a person's confirmation
-- of a placement beside corrections, corrections of dates and credits,
-- and every change as an event.

-- A correction is a place or point a person chose (kind 'place') or the
-- geocoder's place confirmed as right (kind 'confirm'); both survive
-- re-geocoding and re-imports. author names the editor.
ALTER TABLE corrections ADD COLUMN kind TEXT NOT NULL DEFAULT 'place';
ALTER TABLE corrections ADD COLUMN author TEXT NOT NULL DEFAULT '';

-- How a photo's place stands, for lists: '' (the geocoder's), 'corrected'
-- or 'confirmed', by whom and when.
ALTER TABLE photos ADD COLUMN review TEXT NOT NULL DEFAULT '';
ALTER TABLE photos ADD COLUMN reviewed_by TEXT NOT NULL DEFAULT '';
ALTER TABLE photos ADD COLUMN reviewed_at TEXT NOT NULL DEFAULT '';
UPDATE photos SET review = 'corrected', reviewed_at = (SELECT created FROM corrections c WHERE c.photo = photos.rowid)
	WHERE rowid IN (SELECT photo FROM corrections);

-- A person's reading of a photo's date or credit; NULL leaves the
-- caption's (or the file's) value. Re-imports keep it.
CREATE TABLE fixes (
	photo          INTEGER PRIMARY KEY REFERENCES photos (rowid) ON DELETE CASCADE,
	date_from      INTEGER,
	date_to        INTEGER,
	date_precision TEXT,
	photographer   TEXT,
	agency         TEXT,
	author         TEXT NOT NULL,
	note           TEXT NOT NULL DEFAULT '',
	created        TEXT NOT NULL
);

-- Editors, with a memory-hard hash of their password (argon2id, PHC
-- string); tokens and sessions are stored as SHA-256 of their secret.
CREATE TABLE users (
	name    TEXT PRIMARY KEY,
	hash    TEXT NOT NULL,
	created TEXT NOT NULL
);
CREATE TABLE tokens (
	hash    TEXT PRIMARY KEY,
	user    TEXT NOT NULL REFERENCES users (name) ON DELETE CASCADE,
	label   TEXT NOT NULL DEFAULT '',
	created TEXT NOT NULL
);
CREATE TABLE sessions (
	hash    TEXT PRIMARY KEY,
	user    TEXT NOT NULL REFERENCES users (name) ON DELETE CASCADE,
	csrf    TEXT NOT NULL,
	expires TEXT NOT NULL
);

-- Every change a person made: who, when, which photo, what it was and
-- what it became (JSON), and why.
CREATE TABLE events (
	id     INTEGER PRIMARY KEY,
	at     TEXT NOT NULL,
	author TEXT NOT NULL,
	action TEXT NOT NULL,
	photo  TEXT NOT NULL,
	before TEXT NOT NULL,
	after  TEXT NOT NULL,
	note   TEXT NOT NULL DEFAULT ''
);
CREATE INDEX events_photo ON events (photo, id);
CREATE INDEX photos_mention ON photos (mention);

-- Custody: every thing done to a photo (imported, geocoded, corrected,
-- confirmed, flagged, published) and to the archive as a whole (a fixity
-- check), one record each, hash-chained: each record's hash covers its
-- fields and the hash of the record before, so a record changed or
-- deleted by hand breaks the chain (syriamap verify). custody_head keeps
-- the last record's seq and hash, so a deleted last record shows too.
CREATE TABLE custody (
	seq      INTEGER PRIMARY KEY,
	photo_id TEXT NOT NULL, -- '' for the archive as a whole
	at       TEXT NOT NULL, -- RFC 3339, UTC
	actor    TEXT NOT NULL, -- an editor's name, or the command and the system's user
	action   TEXT NOT NULL,
	detail   TEXT NOT NULL, -- JSON
	prev     TEXT NOT NULL, -- the hash of record seq-1, '' for the first
	hash     TEXT NOT NULL
);
CREATE INDEX custody_photo ON custody (photo_id, seq);
CREATE TABLE custody_head (
	id   INTEGER PRIMARY KEY CHECK (id = 1),
	seq  INTEGER NOT NULL,
	hash TEXT NOT NULL
);
-- The photos already in the archive get a first record on its next
-- opening for writing (the archive's task "begin-custody").
INSERT OR IGNORE INTO archive_tasks (name) SELECT 'begin-custody' WHERE EXISTS (SELECT 1 FROM photos);

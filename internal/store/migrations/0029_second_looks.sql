-- Two-person confirmation. The archive's settings (two_person: "on" when
-- every editor's placement waits for a second editor's blind look), each
-- change a custody record.
CREATE TABLE settings (
	name  TEXT PRIMARY KEY,
	value TEXT NOT NULL,
	by    TEXT NOT NULL,
	at    TEXT NOT NULL
) WITHOUT ROWID;

-- Where a photo stands in it: '' (no second look asked), 'requested'
-- (asked, waiting for a first placement), 'waiting' (placed, waiting for
-- a second editor), 'disagreed' (waiting for a third), 'agreed' or
-- 'adjudicated'; verified is 1 when its placement stands on two editors'
-- independent answers (agreed, or adjudicated by a third).
ALTER TABLE photos ADD COLUMN second_look TEXT NOT NULL DEFAULT '';
ALTER TABLE photos ADD COLUMN verified INTEGER NOT NULL DEFAULT 0;
CREATE INDEX photos_verified ON photos (verified) WHERE verified = 1;

-- One round of a second look: the first editor's placement (as it stood
-- when the round opened), the second editor's blind answer and how they
-- compare, and a third editor's decision when they did not agree. A
-- round a later placement replaces is 'superseded'; rounds are never
-- deleted, so agreement over any window can be measured again.
CREATE TABLE second_looks (
	id               INTEGER PRIMARY KEY,
	photo            TEXT NOT NULL,
	state            TEXT NOT NULL CHECK (state IN ('waiting', 'agreed', 'disagreed', 'adjudicated', 'superseded')),
	opened_at        TEXT NOT NULL,
	auto_place_id    TEXT NOT NULL, -- the geocoder's reading then: a second "confirm" is choosing it
	first_by         TEXT NOT NULL,
	first_decision   TEXT NOT NULL,
	first_place_id   TEXT NOT NULL,
	first_lon        REAL,
	first_lat        REAL,
	first_note       TEXT NOT NULL,
	first_at         TEXT NOT NULL,
	second_by        TEXT NOT NULL DEFAULT '',
	second_decision  TEXT NOT NULL DEFAULT '',
	second_place_id  TEXT NOT NULL DEFAULT '',
	second_lon       REAL,
	second_lat       REAL,
	second_note      TEXT NOT NULL DEFAULT '',
	second_at        TEXT NOT NULL DEFAULT '',
	same_place       INTEGER,
	nested           INTEGER,
	same_governorate INTEGER,
	distance_km      REAL,
	size_km          REAL,
	within_size      INTEGER,
	agreed           INTEGER,
	third_by         TEXT NOT NULL DEFAULT '',
	third_choice     TEXT NOT NULL DEFAULT '', -- first, second or other
	third_place_id   TEXT NOT NULL DEFAULT '',
	third_lon        REAL,
	third_lat        REAL,
	third_note       TEXT NOT NULL DEFAULT '',
	third_at         TEXT NOT NULL DEFAULT ''
);
CREATE INDEX second_looks_photo ON second_looks (photo, id);
CREATE INDEX second_looks_open ON second_looks (state, id) WHERE state IN ('waiting', 'disagreed');
CREATE INDEX second_looks_answered ON second_looks (second_at) WHERE second_at != '';

-- Places the archive's editors added to the gazetteer: a shelter, a
-- quarter, a camp the bundled one lacks, with the page its point was read
-- from, who added it and when. The archive's gazetteer is the bundled
-- one and these.
CREATE TABLE added_places (
	id       TEXT PRIMARY KEY,          -- "arc:" and a slug of the name
	name     TEXT NOT NULL,
	name_ar  TEXT NOT NULL DEFAULT '',
	names    TEXT NOT NULL DEFAULT '[]', -- other spellings, JSON
	kind     TEXT NOT NULL,
	lon      REAL NOT NULL CHECK (lon BETWEEN -180 AND 180),
	lat      REAL NOT NULL CHECK (lat BETWEEN -90 AND 90),
	parent   TEXT NOT NULL DEFAULT '',
	source   TEXT NOT NULL DEFAULT '',
	added_by TEXT NOT NULL,
	added_at TEXT NOT NULL
);

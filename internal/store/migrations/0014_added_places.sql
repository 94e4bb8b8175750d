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

-- Spellings the archive's corrections taught: when an editor places a
-- photo whose caption's words the gazetteer could not read (a fallback,
-- or unplaced) at a place, the words become a name of that place in this
-- archive, for as long as the correction (its event) stands.
CREATE TABLE taught_names (
	name     TEXT NOT NULL,
	place_id TEXT NOT NULL,
	event    INTEGER NOT NULL,
	PRIMARY KEY (event, name)
);
CREATE INDEX taught_names_place ON taught_names (place_id);

-- The confidence model refitted on the archive's own reviews (the
-- geocoder's model.json weights as its prior); the newest is used.
CREATE TABLE confidence_models (
	id        INTEGER PRIMARY KEY,
	fitted_at TEXT NOT NULL,
	reviews   INTEGER NOT NULL,
	model     TEXT NOT NULL -- JSON, geocode.Model
);

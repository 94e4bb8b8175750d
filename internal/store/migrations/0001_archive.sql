-- The photo archive. Each photo row holds the place it is shown at
-- (a person's correction, or else the geocoder's choice) in plain columns
-- for the queries. The geocoder's own choice is kept as JSON in `geocoded`
-- only when it is not the place shown (a correction, or a point the file
-- gave); `geo_digest` fingerprints it either way, so that imports and
-- re-geocoding can tell whether it changed.
CREATE TABLE photos (
	rowid          INTEGER PRIMARY KEY,
	id             TEXT NOT NULL UNIQUE,
	caption        TEXT NOT NULL,
	date_from      INTEGER,          -- YYYYMMDD of the first day the date covers, NULL if undated
	date_to        INTEGER,          -- YYYYMMDD of the last day
	date_precision TEXT,             -- day, month, year
	month          INTEGER,          -- YYYYMM for day and month dates, YYYY00 for year dates
	photographer   TEXT NOT NULL DEFAULT '',
	agency         TEXT NOT NULL DEFAULT '',
	place_id       TEXT NOT NULL DEFAULT '',
	place_name     TEXT NOT NULL DEFAULT '',
	place_kind     TEXT NOT NULL DEFAULT '',
	governorate    TEXT NOT NULL DEFAULT '',
	gov_pcode      TEXT NOT NULL DEFAULT '',
	country        TEXT NOT NULL DEFAULT '',
	lon            REAL,             -- NULL when unplaced
	lat            REAL,
	precision      TEXT NOT NULL,    -- exact, fallback, none, corrected
	confidence     REAL NOT NULL DEFAULT 0,
	mention        TEXT NOT NULL DEFAULT '',
	note           TEXT NOT NULL DEFAULT '',
	alternatives   TEXT NOT NULL DEFAULT '[]',
	geocoded       TEXT NOT NULL DEFAULT '', -- the geocoder's place, JSON, when it is not the place shown
	geo_digest     TEXT NOT NULL,
	image_url      TEXT NOT NULL DEFAULT '',
	image_path     TEXT NOT NULL DEFAULT '',
	given          INTEGER NOT NULL DEFAULT 0, -- photo.Given: the values a file gave, kept over derived ones
	digest         TEXT NOT NULL,    -- hash of what the import wrote: unchanged re-imports are skipped
	created        TEXT NOT NULL,
	updated        TEXT NOT NULL,
	CHECK (lon IS NULL OR lon BETWEEN -180 AND 180),
	CHECK (lat IS NULL OR lat BETWEEN -90 AND 90)
);

-- A window of time plus a bounding box is the map's query: the index holds
-- all four columns so that the box is tested without reading rows.
CREATE INDEX photos_window ON photos (date_from, date_to, lon, lat);
CREATE INDEX photos_month ON photos (month);
CREATE INDEX photos_agency ON photos (agency);
CREATE INDEX photos_photographer ON photos (photographer);
CREATE INDEX photos_place ON photos (place_id);
CREATE INDEX photos_gov ON photos (gov_pcode);
CREATE INDEX photos_unplaced ON photos (rowid) WHERE lon IS NULL;

-- Every file and line a photo was imported from, with the id and source
-- label the file gave it, if any.
CREATE TABLE sources (
	photo INTEGER NOT NULL REFERENCES photos (rowid) ON DELETE CASCADE,
	file  TEXT NOT NULL,
	line  INTEGER NOT NULL,
	ref   TEXT NOT NULL DEFAULT '',
	label TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (photo, file, line)
) WITHOUT ROWID;

-- A person's decision about a photo's place; it always wins over the
-- geocoder and survives re-imports and re-geocoding.
CREATE TABLE corrections (
	photo    INTEGER PRIMARY KEY REFERENCES photos (rowid) ON DELETE CASCADE,
	place_id TEXT NOT NULL DEFAULT '',
	lon      REAL NOT NULL,
	lat      REAL NOT NULL,
	note     TEXT NOT NULL DEFAULT '',
	created  TEXT NOT NULL
);

-- Full text over captions; the photos table holds the text.
CREATE VIRTUAL TABLE photos_fts USING fts5 (caption, content = 'photos', content_rowid = 'rowid');

-- Conflict events a photo may document (UCDP GED, ACLED), one row per
-- event of a dataset, as its latest imported version has it. An event the
-- dataset dropped in a later version is kept, retired (the version that
-- dropped it), so that a link to it still says what it was.
CREATE TABLE conflict_events (
	dataset    TEXT NOT NULL,
	id         TEXT NOT NULL,
	version    TEXT NOT NULL,
	date_start INTEGER NOT NULL, -- YYYYMMDD
	date_end   INTEGER NOT NULL,
	date_prec  INTEGER NOT NULL,
	lon        REAL NOT NULL,
	lat        REAL NOT NULL,
	where_prec INTEGER NOT NULL,
	event      TEXT NOT NULL, -- the whole event as JSON (conflict.Event)
	retired    TEXT NOT NULL DEFAULT '', -- the version that dropped it
	PRIMARY KEY (dataset, id)
) WITHOUT ROWID;

-- The linker asks for the events of a window near a point.
CREATE INDEX conflict_events_window ON conflict_events (date_start, date_end);

-- Every change an import made to the events: added, changed (before and
-- after), retired, restored.
CREATE TABLE conflict_event_changes (
	seq     INTEGER PRIMARY KEY,
	at      TEXT NOT NULL,
	actor   TEXT NOT NULL,
	dataset TEXT NOT NULL,
	id      TEXT NOT NULL,
	version TEXT NOT NULL,
	change  TEXT NOT NULL, -- added, changed, retired, restored
	before  TEXT NOT NULL DEFAULT '',
	after   TEXT NOT NULL DEFAULT ''
);

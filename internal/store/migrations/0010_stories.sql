-- Stories: guided sequences through the map and the timeline that
-- editors write and readers step through (internal/story). A story's
-- steps are replaced whole at each save; story_events keeps every save,
-- with the story as it was saved, as events keeps corrections.
CREATE TABLE stories (
	id      INTEGER PRIMARY KEY,
	slug    TEXT NOT NULL UNIQUE,
	title   TEXT NOT NULL,
	summary TEXT NOT NULL DEFAULT '',
	author  TEXT NOT NULL,
	status  TEXT NOT NULL CHECK (status IN ('draft', 'published')),
	created TEXT NOT NULL,
	updated TEXT NOT NULL
);
CREATE TABLE story_steps (
	story     INTEGER NOT NULL REFERENCES stories (id) ON DELETE CASCADE,
	position  INTEGER NOT NULL,
	heading   TEXT NOT NULL,
	text      TEXT NOT NULL DEFAULT '',
	photos    TEXT NOT NULL DEFAULT '[]', -- JSON: [{"id", "caption"}]
	state     TEXT NOT NULL DEFAULT '',
	highlight TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (story, position)
);
CREATE TABLE story_events (
	id       INTEGER PRIMARY KEY,
	story    INTEGER NOT NULL REFERENCES stories (id) ON DELETE CASCADE,
	at       TEXT NOT NULL,
	author   TEXT NOT NULL,
	action   TEXT NOT NULL,
	snapshot TEXT NOT NULL -- JSON: the story as saved
);
CREATE INDEX story_events_story ON story_events (story, id);

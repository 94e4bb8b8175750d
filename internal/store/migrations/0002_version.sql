-- A counter that every write to the archive raises, so that readers (the
-- HTTP server's ETags) can tell cheaply whether anything changed.
CREATE TABLE archive_version (
	id      INTEGER PRIMARY KEY CHECK (id = 1),
	version INTEGER NOT NULL
);
INSERT INTO archive_version (id, version) VALUES (1, 0);

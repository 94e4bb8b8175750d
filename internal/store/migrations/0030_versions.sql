-- Every photo's version, raised by each change to its row (a person's
-- placement, a fix, a harm mark, an event link, a second look, an
-- import, a re-geocoding): a write carries the version its editor saw,
-- and one over a newer version is refused (HTTP If-Match, 412), so that
-- two editors never overwrite each other unseen.
ALTER TABLE photos ADD COLUMN rev INTEGER NOT NULL DEFAULT 0;
CREATE TRIGGER photos_rev AFTER UPDATE ON photos WHEN NEW.rev = OLD.rev
BEGIN
	UPDATE photos SET rev = OLD.rev + 1 WHERE rowid = NEW.rowid;
END;

-- A story's version likewise, raised by each save.
ALTER TABLE stories ADD COLUMN rev INTEGER NOT NULL DEFAULT 0;
CREATE TRIGGER stories_rev AFTER UPDATE ON stories WHEN NEW.rev = OLD.rev
BEGIN
	UPDATE stories SET rev = OLD.rev + 1 WHERE rowid = NEW.rowid;
END;

-- An added place's version likewise, raised by each move, removal and
-- restoration.
ALTER TABLE added_places ADD COLUMN rev INTEGER NOT NULL DEFAULT 0;
CREATE TRIGGER added_places_rev AFTER UPDATE ON added_places WHEN NEW.rev = OLD.rev
BEGIN
	UPDATE added_places SET rev = OLD.rev + 1 WHERE rowid = NEW.rowid;
END;

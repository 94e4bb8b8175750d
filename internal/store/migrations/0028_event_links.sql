-- An editor's decision on whether a photo documents a conflict event:
-- confirmed (the photo documents it) or rejected (a suggestion the editor
-- turned down, so that it is not suggested as new again). Taking a
-- decision back deletes its row; every decision and its undoing is a
-- custody record of the photo.
CREATE TABLE photo_event_links (
	photo    TEXT NOT NULL, -- photos.id
	dataset  TEXT NOT NULL,
	event    TEXT NOT NULL,
	version  TEXT NOT NULL, -- the dataset's version the editor saw
	decision TEXT NOT NULL CHECK (decision IN ('confirmed', 'rejected')),
	by       TEXT NOT NULL,
	at       TEXT NOT NULL,
	PRIMARY KEY (photo, dataset, event)
) WITHOUT ROWID;

-- An event's page lists the photos that document it.
CREATE INDEX photo_event_links_event ON photo_event_links (dataset, event) WHERE decision = 'confirmed';

-- The photo's confirmed links to UCDP GED events, "ucdp-ged:270123"
-- separated by spaces: what its features carry as "events". ACLED's are
-- kept out: its terms keep its rows, and links to them, from readers.
ALTER TABLE photos ADD COLUMN events TEXT NOT NULL DEFAULT '';

-- An added place says its country when it is abroad, and whether the
-- editor marked it as another place than a gazetteer one of its name; it
-- can be removed (removed_at, removed_by: kept, so that the removal can be
-- undone and the history still names it) and moved (its point updated,
-- the old one in the custody record).
ALTER TABLE added_places ADD COLUMN country TEXT NOT NULL DEFAULT '';
ALTER TABLE added_places ADD COLUMN distinct_place INTEGER NOT NULL DEFAULT 0;
ALTER TABLE added_places ADD COLUMN removed_at TEXT NOT NULL DEFAULT '';
ALTER TABLE added_places ADD COLUMN removed_by TEXT NOT NULL DEFAULT '';

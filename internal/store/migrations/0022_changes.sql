-- changes counts every write that changes any answer the server gives
-- (a story saved, a place added, a custody record), where version counts
-- only the changes to photos (which rebuild the memory index).
ALTER TABLE archive_version ADD COLUMN changes INTEGER NOT NULL DEFAULT 0;
UPDATE archive_version SET changes = version;

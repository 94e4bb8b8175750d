-- The check now compares the caption's date with the file's IPTC date
-- created and its credit with the file's by-line and credit: the image
-- files' checks are computed again on the archive's next opening for
-- writing.
INSERT OR IGNORE INTO archive_tasks (name) SELECT 'recheck-files' WHERE EXISTS (SELECT 1 FROM photos WHERE image_file != '');

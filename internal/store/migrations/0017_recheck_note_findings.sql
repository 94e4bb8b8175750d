-- The check's note is now said from its findings (archive.CheckNote),
-- which pages say in their reader's language when the stored note is the
-- one the findings give: the image files' checks are computed again on
-- the archive's next opening for writing, so that every stored note is.
INSERT OR IGNORE INTO archive_tasks (name) SELECT 'recheck-files' WHERE EXISTS (SELECT 1 FROM photos WHERE image_file != '');

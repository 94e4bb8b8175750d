-- IPTC countries written in Arabic ("سوريا") are now read as the
-- countries they name: the image files' checks are computed again on the
-- archive's next opening for writing, so that no stored check keeps a
-- disagreement that was only a language.
INSERT OR IGNORE INTO archive_tasks (name) SELECT 'recheck-files' WHERE EXISTS (SELECT 1 FROM photos WHERE image_file != '');

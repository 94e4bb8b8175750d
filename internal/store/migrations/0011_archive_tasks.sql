-- Work an upgrade owes that SQL cannot do: the archive does each task
-- when it is next opened for writing, then deletes it. The first: image
-- files' checks computed again, so that no stored note keeps a distance
-- of the camera's GPS point, which with a second one gives the point away.
CREATE TABLE archive_tasks (name TEXT PRIMARY KEY);
INSERT INTO archive_tasks (name) SELECT 'recheck-files' WHERE EXISTS (SELECT 1 FROM photos WHERE image_file != '');

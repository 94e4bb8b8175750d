-- Every image files gave a photo: an agency often sends one caption with
-- several pictures, and a second file must not erase the first's image.
-- photos.image_url and image_path keep the first, for lists and maps; seq
-- orders them as they came.
CREATE TABLE images (
	photo INTEGER NOT NULL REFERENCES photos (rowid) ON DELETE CASCADE,
	url   TEXT NOT NULL DEFAULT '',
	path  TEXT NOT NULL DEFAULT '',
	seq   INTEGER NOT NULL,
	PRIMARY KEY (photo, url, path)
) WITHOUT ROWID;
INSERT INTO images (photo, url, path, seq)
	SELECT rowid, image_url, image_path, 1 FROM photos WHERE image_url != '' OR image_path != '';
-- Marks the file as a syriamap archive ("SYRM"), so that another
-- application's SQLite file is never taken for one.
PRAGMA application_id = 1398362701;

-- Image files imported with their metadata (JPEGs carrying IPTC, XMP and
-- EXIF): one row per file, by its absolute path. sha256 is the whole
-- file's hash: a re-import of an unchanged file (same size and time) is
-- skipped without reading it, and a changed one (another hash) updates.
-- meta is what the file's metadata said, as JSON, for the photo's page.
CREATE TABLE files (
	path     TEXT PRIMARY KEY,
	photo    INTEGER NOT NULL REFERENCES photos (rowid) ON DELETE CASCADE,
	sha256   TEXT NOT NULL,
	size     INTEGER NOT NULL,
	mtime    TEXT NOT NULL,
	meta     TEXT NOT NULL DEFAULT '{}',
	imported TEXT NOT NULL
);
CREATE INDEX files_photo ON files (photo);
CREATE INDEX files_sha ON files (sha256);

-- The folders images were imported from: the server serves image files
-- under them (and under --media) and nowhere else.
CREATE TABLE media_roots (path TEXT PRIMARY KEY) WITHOUT ROWID;

-- How a photo's caption agrees with its image file's metadata (see
-- photo.Check), and the hash of its first image file, which its
-- derivatives are served by. agreement is '' when there is nothing to
-- compare.
ALTER TABLE photos ADD COLUMN image_file TEXT NOT NULL DEFAULT '';
ALTER TABLE photos ADD COLUMN iptc_city TEXT NOT NULL DEFAULT '';
ALTER TABLE photos ADD COLUMN iptc_country TEXT NOT NULL DEFAULT '';
ALTER TABLE photos ADD COLUMN gps_lon REAL;
ALTER TABLE photos ADD COLUMN gps_lat REAL;
ALTER TABLE photos ADD COLUMN exif_time TEXT NOT NULL DEFAULT '';
ALTER TABLE photos ADD COLUMN agreement TEXT NOT NULL DEFAULT '';
ALTER TABLE photos ADD COLUMN agreement_note TEXT NOT NULL DEFAULT '';
CREATE INDEX photos_agreement ON photos (agreement) WHERE agreement != '';

-- Same frame, other captions: each image file's perceptual hash (and its
-- mirrored picture's), by the file's SHA-256 — the same bytes have one —
-- computed by `syriamap frames`; and on each photo whether its frame is
-- also another photo's (reuse 'copy') with a caption that disagrees
-- (reuse 'conflict'), and reuse_of, the photo the frame is known from
-- first.
CREATE TABLE frames (
	sha256   TEXT PRIMARY KEY,
	hash     INTEGER NOT NULL,
	mirrored INTEGER NOT NULL
);
ALTER TABLE photos ADD COLUMN reuse TEXT NOT NULL DEFAULT '';
ALTER TABLE photos ADD COLUMN reuse_of TEXT NOT NULL DEFAULT '';
CREATE INDEX photos_reuse ON photos (reuse) WHERE reuse != '';

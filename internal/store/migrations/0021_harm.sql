-- Harm an editor marked a photo with: 'graphic' (shown blurred until a
-- reader asks) or 'withheld' (for the safety of people in it: left out of
-- every public read); '' none. Each mark's reason is its custody record.
-- Public reads leave the withheld out by rowid, through the partial
-- index, so that the covering indexes they read stay covering.
ALTER TABLE photos ADD COLUMN harm TEXT NOT NULL DEFAULT '' CHECK (harm IN ('', 'graphic', 'withheld'));
CREATE INDEX photos_withheld ON photos (rowid) WHERE harm = 'withheld';
-- A media file is served only when a public photo names it.
CREATE INDEX images_path ON images (path) WHERE path != '';

-- The caption's place text folded (case, article, spelling: "Al
-- Mushayrifah" and "MUSHAYRIFAH" are one key), so that the review queue
-- groups the photos whose captions name one place however it was
-- written. Rows written before this column read '' until the archive
-- fills them on open (FillMentionKeys).
ALTER TABLE photos ADD COLUMN mention_key TEXT NOT NULL DEFAULT '';
DROP INDEX IF EXISTS photos_mention;
CREATE INDEX photos_mention_key ON photos (mention_key);

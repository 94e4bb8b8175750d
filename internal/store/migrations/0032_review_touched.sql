-- The review queue's groups are kept in memory, filter by filter, and
-- brought up to date group by group rather than counted again after
-- every change (issue 65, 9: 5 s for q=al* at 200,000 photos after one
-- upload). review_touched names each group (its mention_key) a write
-- changed a photo of, and the order of its last change (seq, rising with
-- every change, in the order they commit): a reader that saw the changes
-- up to n counts again only the groups of seq > n. Only the photos no
-- person has checked (review = '') are in the queue, so only a row that
-- is or was one of them touches its groups. Whatever writes (an import,
-- a correction, a re-geocoding, a mark, another process), the triggers
-- see it.
CREATE TABLE review_touched (mention_key TEXT PRIMARY KEY, seq INTEGER NOT NULL) WITHOUT ROWID;
CREATE INDEX review_touched_seq ON review_touched (seq);
CREATE TRIGGER review_touched_insert AFTER INSERT ON photos WHEN NEW.review = ''
BEGIN
	INSERT OR REPLACE INTO review_touched (mention_key, seq) VALUES (NEW.mention_key, (SELECT ifnull(max(seq), 0) + 1 FROM review_touched));
END;
CREATE TRIGGER review_touched_was AFTER UPDATE ON photos WHEN OLD.review = ''
BEGIN
	INSERT OR REPLACE INTO review_touched (mention_key, seq) VALUES (OLD.mention_key, (SELECT ifnull(max(seq), 0) + 1 FROM review_touched));
END;
CREATE TRIGGER review_touched_is AFTER UPDATE ON photos WHEN NEW.review = ''
BEGIN
	INSERT OR REPLACE INTO review_touched (mention_key, seq) VALUES (NEW.mention_key, (SELECT ifnull(max(seq), 0) + 1 FROM review_touched));
END;
CREATE TRIGGER review_touched_delete AFTER DELETE ON photos WHEN OLD.review = ''
BEGIN
	INSERT OR REPLACE INTO review_touched (mention_key, seq) VALUES (OLD.mention_key, (SELECT ifnull(max(seq), 0) + 1 FROM review_touched));
END;

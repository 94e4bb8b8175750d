-- The review queue at a million photos: how much a photo needs a person
-- (need: 4 its image file disagrees with the caption, 3 unplaced, 2 a
-- fallback, 1 unsure, 0 else) as a column, and one index of the
-- unchecked photos in the queue's order that holds every column the
-- queue's filters read, so that listing the groups of any selection is
-- one pass over the index and never a lookup in the table.
ALTER TABLE photos ADD COLUMN need INTEGER GENERATED ALWAYS AS (CASE WHEN agreement = 'disagrees' THEN 4 WHEN lon IS NULL THEN 3
	WHEN precision = 'fallback' THEN 2 WHEN confidence < 0.5 THEN 1 ELSE 0 END) VIRTUAL;
CREATE INDEX photos_review ON photos (mention_key, need DESC, confidence, date_from DESC, id, mention, date_to, lon, lat, agency,
	photographer, place_id, gov_pcode, governorate, agreement) WHERE review = '';

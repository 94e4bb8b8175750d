-- Where each photo's date came from (photo.Photo.DateSource): caption,
-- import (a file's date column or field, or its page's published day),
-- file (an image's IPTC date created or EXIF time) or editor (a person's
-- fix). Photos already dated keep their date, which was the caption's
-- unless a file gave it (given's first bit: an image file's when the
-- photo was read from one, else an import's) or a person fixed it.
ALTER TABLE photos ADD COLUMN date_source TEXT NOT NULL DEFAULT '';
UPDATE photos SET date_source = CASE
	WHEN rowid IN (SELECT photo FROM fixes WHERE date_precision IS NOT NULL) THEN 'editor'
	WHEN given & 1 != 0 AND rowid IN (SELECT photo FROM files) THEN 'file'
	WHEN given & 1 != 0 THEN 'import'
	ELSE 'caption' END
WHERE date_precision IS NOT NULL;

-- Arabic captions are searched by their words folded (hamza forms, ة/ه,
-- ى/ي, marks, digits: lexicon.FoldArabic) and without the particles and
-- article written onto them, so that "حلب" finds "بحلب" and "الرقة"
-- finds "وبالرقة". The words are made in Go (arabicWords): this index
-- holds only them, no text. Captions already in the archive are indexed
-- when this migration is applied (migrationSteps).
CREATE VIRTUAL TABLE photos_fts_ar USING fts5 (words, content = '');

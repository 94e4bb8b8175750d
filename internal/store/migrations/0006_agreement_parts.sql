-- Which parts of an image file's metadata reach its agreement's level,
-- "place", "clock" or "place clock", so that a page can say which part
-- disagrees (a camera clock off by a year is not a wrong place). Rows
-- checked before this column read '' until they are checked again.
ALTER TABLE photos ADD COLUMN agreement_parts TEXT NOT NULL DEFAULT '';

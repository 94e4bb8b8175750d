-- hidden counts the changes that touch only photos withheld from the
-- public (a correction, a re-use flag, an export of a withheld photo):
-- editors' answers are named by it too, readers' are not, so that a
-- reader's ETags never tell when hidden photos are edited.
ALTER TABLE archive_version ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0;

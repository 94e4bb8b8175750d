-- The photos whose placement waits for a second look, or for a third
-- editor's decision: few at any time. Every read but the first editor's
-- and the archive's own shows them unplaced (photo.Viewer.Shown) and
-- leaves them out of what selects or counts by place, through this index.
CREATE INDEX photos_awaiting ON photos (reviewed_by) WHERE second_look IN ('waiting', 'disagreed');

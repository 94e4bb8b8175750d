-- The events one Apply recorded share a batch, the id of its first event,
-- so that a change made to a whole group can be undone as one. Events
-- recorded before this column have batch 0 and are undone by hand.
ALTER TABLE events ADD COLUMN batch INTEGER NOT NULL DEFAULT 0;
CREATE INDEX events_batch ON events (batch) WHERE batch != 0;

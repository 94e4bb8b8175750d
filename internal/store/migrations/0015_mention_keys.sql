-- Review groups are keyed more strictly (archive.MentionKey: "Sher" and
-- "Sha'aar", two names the gazetteer holds apart, were one group): the
-- keys are emptied here, and the archive's next opening for writing folds
-- them again (FillMentionKeys).
UPDATE photos SET mention_key = '' WHERE mention != '';

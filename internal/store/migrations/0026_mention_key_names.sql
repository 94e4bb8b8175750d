-- The review groups' key now keeps apart the spellings the gazetteer gives
-- to different names ("Al Masaddah" and "Mas‘adah" folded alike): the keys
-- written before are folded again when the archive opens
-- (FillMentionKeys), so that no group joins two names.
UPDATE photos SET mention_key = '' WHERE mention != '';

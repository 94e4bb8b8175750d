-- Each image's PDQ hash (ThreatExchange's 256-bit perceptual hash, as 64
-- hex digits) and its quality (0–100), beside its frame hash: null for a
-- frame hashed before they were, until `syriamap frames` recomputes it.
ALTER TABLE frames ADD COLUMN pdq TEXT;
ALTER TABLE frames ADD COLUMN pdq_quality INTEGER;

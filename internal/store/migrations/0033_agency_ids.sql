-- A source credited under names in both scripts is one agency, filed
-- under the ID of the table of sources (lexicon.Agencies): "الدفاع المدني"
-- and "Syrian Civil Defence" are one. Photos and people's fixes already in
-- the archive are filed so when this migration is applied (migrationSteps:
-- agencyIDs); imports and corrections file them so from now on.
CREATE INDEX IF NOT EXISTS photos_agency ON photos (agency);

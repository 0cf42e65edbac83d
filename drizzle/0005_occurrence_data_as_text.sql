-- Stored events are written once and read whole: keep the JSON text instead of parsing it into jsonb on every insert.
ALTER TABLE "occurrences" ALTER COLUMN "data" SET DATA TYPE text USING "data"::text;

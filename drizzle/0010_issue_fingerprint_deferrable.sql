-- The ingest batch statement upserts issues ON CONFLICT (id). An upsert settles a race only on its
-- arbiter index: when two batches insert or update the same issue at once, the loser may take the
-- speculative-insert path, and an immediate unique index on (project_id, fingerprint) then fails the
-- whole statement with 23505 instead of letting the upsert retry as an update. Deferrable, the index
-- is checked at the end of the statement, by when the upsert has backed its speculative row out.
-- One issue per fingerprint and project stays enforced; the index is kept as it is (no rebuild).
ALTER TABLE "issues" ADD CONSTRAINT "issues_project_fingerprint_idx" UNIQUE USING INDEX "issues_project_fingerprint_idx" DEFERRABLE INITIALLY IMMEDIATE;

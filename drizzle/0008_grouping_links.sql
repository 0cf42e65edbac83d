CREATE INDEX "issue_fingerprints_v1_project_idx" ON "issue_fingerprints" USING btree ("project_id") WHERE "issue_fingerprints"."grouping_version" = 1;--> statement-breakpoint
-- hand-written: every issue's own fingerprint gets its issue_fingerprints row. Issues made by
-- grouping v2 have one from the statement that created them; issues made before (v1) did not, and
-- the ingest statement looked them up in issues as well. With the rows in place it needs only the
-- issue_fingerprints lookups (src/server/ingest/store/batch-commit.ts). A fingerprint whose row
-- already names another issue (merged, split) keeps it.
INSERT INTO "issue_fingerprints" ("organization_id", "project_id", "fingerprint", "issue_id", "grouping_version")
SELECT "organization_id", "project_id", "fingerprint", "id", "grouping_version" FROM "issues"
ON CONFLICT ("project_id", "fingerprint") DO NOTHING;

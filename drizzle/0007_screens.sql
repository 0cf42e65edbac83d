ALTER TABLE "project_keys" ADD COLUMN "is_primary" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "issues" ADD COLUMN "last_regression_batch" uuid;--> statement-breakpoint
CREATE UNIQUE INDEX "project_keys_one_primary_idx" ON "project_keys" USING btree ("project_id") WHERE "project_keys"."is_primary";--> statement-breakpoint
-- hand-written (screens): existing projects keep the DSN they show today (their newest active key) as their primary.
UPDATE "project_keys" SET "is_primary" = true WHERE "id" IN (SELECT DISTINCT ON ("project_id") "id" FROM "project_keys" WHERE "revoked_at" IS NULL ORDER BY "project_id", "created_at" DESC, "id" DESC);

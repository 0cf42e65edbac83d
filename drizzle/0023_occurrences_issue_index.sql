DROP INDEX "occurrences_org_issue_received_idx";--> statement-breakpoint
CREATE INDEX "occurrences_issue_received_idx" ON "occurrences" USING btree ("issue_id","received_at" DESC NULLS LAST);
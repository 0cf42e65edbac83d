-- Occurrences and native analytics events move into week partitions (issue 35): retention drops
-- whole weeks instead of deleting rows from one big table. drizzle cannot declare partitioned
-- tables, so this migration is written by hand; its snapshot records the columns and indexes as
-- drizzle sees them. The old tables are renamed here, not copied: copying millions of rows in one
-- migration statement would hold the start silent for minutes, so the first start moves them in
-- batches with progress in the log (src/server/retention/partition-upgrade.ts) and drops them.
-- No DEFAULT partition: with one, PostgreSQL cannot read the weeks in order and stop (an ordered
-- Append) and merges an index scan of every week instead. This week and the next get their
-- partitions at every start and from the maintenance job, and ingest creates a missing week on
-- the spot (retention/current-partitions.ts), so no row is refused for want of one.
ALTER TABLE "occurrences" RENAME TO "occurrences_unpartitioned";--> statement-breakpoint
ALTER INDEX "occurrences_pkey" RENAME TO "occurrences_unpartitioned_pkey";--> statement-breakpoint
ALTER INDEX "occurrences_project_event_id_idx" RENAME TO "occurrences_unpartitioned_project_event_id_idx";--> statement-breakpoint
ALTER INDEX "occurrences_issue_received_idx" RENAME TO "occurrences_unpartitioned_issue_received_idx";--> statement-breakpoint
ALTER INDEX "occurrences_org_project_received_idx" RENAME TO "occurrences_unpartitioned_org_project_received_idx";--> statement-breakpoint
CREATE TABLE "occurrences" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" text NOT NULL,
	"project_id" uuid NOT NULL,
	"issue_id" uuid NOT NULL,
	"event_id" text NOT NULL,
	"timestamp" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"received_on" date NOT NULL,
	"level" text NOT NULL,
	"platform" text,
	"environment" text,
	"environment_bucket" text NOT NULL,
	"release" text,
	"name" text,
	"message" text,
	"user_key" text,
	"fingerprint" text,
	"data" text NOT NULL,
	CONSTRAINT "occurrences_pkey" PRIMARY KEY ("id", "received_on"),
	CONSTRAINT "occurrences_received_on_is_received_at_day" CHECK ("received_on" = ("received_at" AT TIME ZONE 'UTC')::date)
) PARTITION BY RANGE ("received_on");--> statement-breakpoint
ALTER TABLE "occurrences_unpartitioned" DROP CONSTRAINT "occurrences_project_id_projects_id_fk";--> statement-breakpoint
ALTER TABLE "occurrences_unpartitioned" DROP CONSTRAINT "occurrences_issue_id_issues_id_fk";--> statement-breakpoint
ALTER TABLE "occurrences" ADD CONSTRAINT "occurrences_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "occurrences" ADD CONSTRAINT "occurrences_issue_id_issues_id_fk" FOREIGN KEY ("issue_id") REFERENCES "public"."issues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "occurrences_project_event_id_idx" ON "occurrences" USING btree ("project_id","event_id","received_on");--> statement-breakpoint
CREATE INDEX "occurrences_issue_received_idx" ON "occurrences" USING btree ("issue_id","received_on" DESC NULLS FIRST,"received_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "occurrences_org_project_received_idx" ON "occurrences" USING btree ("organization_id","project_id","received_on" DESC NULLS FIRST,"received_at" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "events" RENAME TO "events_unpartitioned";--> statement-breakpoint
ALTER INDEX "events_pkey" RENAME TO "events_unpartitioned_pkey";--> statement-breakpoint
ALTER INDEX "events_org_project_created_idx" RENAME TO "events_unpartitioned_org_project_created_idx";--> statement-breakpoint
ALTER INDEX "events_org_project_name_created_idx" RENAME TO "events_unpartitioned_org_project_name_created_idx";--> statement-breakpoint
ALTER TABLE "events_unpartitioned" DROP CONSTRAINT "events_project_id_projects_id_fk";--> statement-breakpoint
CREATE TABLE "events" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" text NOT NULL,
	"project_id" uuid NOT NULL,
	"name" text NOT NULL,
	"properties" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "events_pkey" PRIMARY KEY ("id", "created_at")
) PARTITION BY RANGE ("created_at");--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "events_org_project_created_idx" ON "events" USING btree ("organization_id","project_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "events_org_project_name_created_idx" ON "events" USING btree ("organization_id","project_id","name","created_at" DESC NULLS LAST);
--> statement-breakpoint
CREATE TABLE "maintenance_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lane" text DEFAULT 'maintenance' NOT NULL,
	"as_of" timestamp with time zone NOT NULL,
	"holder" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"summary" text,
	"error" text
);
--> statement-breakpoint
CREATE UNIQUE INDEX "maintenance_runs_one_running_idx" ON "maintenance_runs" USING btree ("lane") WHERE finished_at is null;--> statement-breakpoint
CREATE INDEX "maintenance_runs_started_idx" ON "maintenance_runs" USING btree ("started_at" DESC NULLS LAST);
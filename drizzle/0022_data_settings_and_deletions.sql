CREATE TABLE "data_settings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" text NOT NULL,
	"project_id" uuid,
	"retention_days" integer,
	"scrub_defaults" boolean,
	"store_ip_addresses" boolean,
	"sensitive_fields" text,
	"safe_fields" text,
	"rules" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deletions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" text NOT NULL,
	"kind" text NOT NULL,
	"target" text NOT NULL,
	"target_name" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"done" bigint DEFAULT 0 NOT NULL,
	"total" bigint DEFAULT 0 NOT NULL,
	"requested_by" text NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "scrub_daily_counts" (
	"project_id" uuid NOT NULL,
	"day" date NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "scrub_daily_counts_project_id_day_pk" PRIMARY KEY("project_id","day")
);
--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "deletion_id" uuid;--> statement-breakpoint
ALTER TABLE "issues" ADD COLUMN "deletion_id" uuid;--> statement-breakpoint
ALTER TABLE "data_settings" ADD CONSTRAINT "data_settings_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_settings" ADD CONSTRAINT "data_settings_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scrub_daily_counts" ADD CONSTRAINT "scrub_daily_counts_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "data_settings_organization_idx" ON "data_settings" USING btree ("organization_id") WHERE project_id is null;--> statement-breakpoint
CREATE UNIQUE INDEX "data_settings_project_idx" ON "data_settings" USING btree ("project_id") WHERE project_id is not null;--> statement-breakpoint
CREATE INDEX "deletions_organization_created_idx" ON "deletions" USING btree ("organization_id","created_at" DESC NULLS LAST);
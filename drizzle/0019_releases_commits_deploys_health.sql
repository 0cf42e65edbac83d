CREATE TABLE "deploys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" text NOT NULL,
	"release_id" uuid NOT NULL,
	"environment" text NOT NULL,
	"name" text,
	"url" text,
	"date_started" timestamp with time zone,
	"date_finished" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "release_commit_files" (
	"release_commit_id" uuid NOT NULL,
	"organization_id" text NOT NULL,
	"filename" text NOT NULL,
	"change_type" text,
	CONSTRAINT "release_commit_files_release_commit_id_filename_pk" PRIMARY KEY("release_commit_id","filename")
);
--> statement-breakpoint
CREATE TABLE "release_commits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" text NOT NULL,
	"release_id" uuid NOT NULL,
	"repository_id" uuid,
	"commit_id" text NOT NULL,
	"message" text,
	"author_name" text,
	"author_email" text,
	"date_committed" timestamp with time zone,
	"position" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "release_health_hourly" (
	"organization_id" text NOT NULL,
	"project_id" uuid NOT NULL,
	"release" text NOT NULL,
	"environment" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"sessions" bigint DEFAULT 0 NOT NULL,
	"errored" bigint DEFAULT 0 NOT NULL,
	"crashed" bigint DEFAULT 0 NOT NULL,
	"abnormal" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "release_health_hourly_project_id_release_environment_hour_pk" PRIMARY KEY("project_id","release","environment","hour")
);
--> statement-breakpoint
CREATE TABLE "release_health_users" (
	"organization_id" text NOT NULL,
	"project_id" uuid NOT NULL,
	"release" text NOT NULL,
	"environment" text NOT NULL,
	"day" date NOT NULL,
	"user_key" text NOT NULL,
	"crashed" boolean DEFAULT false NOT NULL,
	CONSTRAINT "release_health_users_project_id_release_environment_day_user_key_pk" PRIMARY KEY("project_id","release","environment","day","user_key")
);
--> statement-breakpoint
CREATE TABLE "repositories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" text NOT NULL,
	"name" text NOT NULL,
	"provider" text,
	"url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "issues" ADD COLUMN "resolved_in_release" text;--> statement-breakpoint
ALTER TABLE "issues" ADD COLUMN "resolved_in_next_release" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "releases" ADD COLUMN "status" text DEFAULT 'open' NOT NULL;--> statement-breakpoint
ALTER TABLE "releases" ADD COLUMN "ref" text;--> statement-breakpoint
ALTER TABLE "releases" ADD COLUMN "first_seen_in_event" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "deploys" ADD CONSTRAINT "deploys_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deploys" ADD CONSTRAINT "deploys_release_id_releases_id_fk" FOREIGN KEY ("release_id") REFERENCES "public"."releases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_commit_files" ADD CONSTRAINT "release_commit_files_release_commit_id_release_commits_id_fk" FOREIGN KEY ("release_commit_id") REFERENCES "public"."release_commits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_commit_files" ADD CONSTRAINT "release_commit_files_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_commits" ADD CONSTRAINT "release_commits_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_commits" ADD CONSTRAINT "release_commits_release_id_releases_id_fk" FOREIGN KEY ("release_id") REFERENCES "public"."releases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_commits" ADD CONSTRAINT "release_commits_repository_id_repositories_id_fk" FOREIGN KEY ("repository_id") REFERENCES "public"."repositories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_health_hourly" ADD CONSTRAINT "release_health_hourly_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_health_users" ADD CONSTRAINT "release_health_users_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "repositories" ADD CONSTRAINT "repositories_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deploys_org_release_idx" ON "deploys" USING btree ("organization_id","release_id");--> statement-breakpoint
CREATE INDEX "deploys_org_environment_finished_idx" ON "deploys" USING btree ("organization_id","environment","date_finished");--> statement-breakpoint
CREATE UNIQUE INDEX "release_commits_release_commit_idx" ON "release_commits" USING btree ("release_id","commit_id");--> statement-breakpoint
CREATE INDEX "release_commits_org_release_idx" ON "release_commits" USING btree ("organization_id","release_id","position");--> statement-breakpoint
CREATE INDEX "release_health_hourly_project_hour_idx" ON "release_health_hourly" USING btree ("organization_id","project_id","hour");--> statement-breakpoint
CREATE UNIQUE INDEX "repositories_organization_name_idx" ON "repositories" USING btree ("organization_id","name");
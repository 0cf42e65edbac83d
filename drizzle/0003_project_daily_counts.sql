CREATE TABLE "project_daily_counts" (
	"organization_id" text NOT NULL,
	"project_id" uuid NOT NULL,
	"environment" text NOT NULL,
	"day" date NOT NULL,
	"count" bigint NOT NULL,
	CONSTRAINT "project_daily_counts_project_id_environment_day_pk" PRIMARY KEY("project_id","environment","day")
);
--> statement-breakpoint
ALTER TABLE "project_daily_counts" ADD CONSTRAINT "project_daily_counts_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;
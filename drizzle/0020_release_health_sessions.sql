CREATE TABLE "release_health_sessions" (
	"organization_id" text NOT NULL,
	"project_id" uuid NOT NULL,
	"session_id" text NOT NULL,
	"release" text NOT NULL,
	"environment" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"outcome" smallint NOT NULL,
	"previous_outcome" smallint DEFAULT 0 NOT NULL,
	CONSTRAINT "release_health_sessions_project_id_session_id_pk" PRIMARY KEY("project_id","session_id")
);
--> statement-breakpoint
ALTER TABLE "release_health_sessions" ADD CONSTRAINT "release_health_sessions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "release_health_sessions_hour_idx" ON "release_health_sessions" USING btree ("hour");
CREATE TABLE "issue_fingerprints" (
	"organization_id" text NOT NULL,
	"project_id" uuid NOT NULL,
	"fingerprint" text NOT NULL,
	"issue_id" uuid NOT NULL,
	"grouping_version" smallint NOT NULL,
	"components" text,
	"exception_type" text,
	"crash_frame" text,
	"message_template" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "issue_fingerprints_project_id_fingerprint_pk" PRIMARY KEY("project_id","fingerprint")
);
--> statement-breakpoint
ALTER TABLE "occurrences" ADD COLUMN "fingerprint" text;--> statement-breakpoint
ALTER TABLE "issue_fingerprints" ADD CONSTRAINT "issue_fingerprints_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_fingerprints" ADD CONSTRAINT "issue_fingerprints_issue_id_issues_id_fk" FOREIGN KEY ("issue_id") REFERENCES "public"."issues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "issue_fingerprints_org_issue_idx" ON "issue_fingerprints" USING btree ("organization_id","issue_id");--> statement-breakpoint
CREATE INDEX "issue_fingerprints_org_project_crash_frame_idx" ON "issue_fingerprints" USING btree ("organization_id","project_id","crash_frame");--> statement-breakpoint
CREATE INDEX "issue_fingerprints_org_project_exception_type_idx" ON "issue_fingerprints" USING btree ("organization_id","project_id","exception_type");
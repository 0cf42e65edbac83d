CREATE TABLE "source_map_waits" (
	"organization_id" text NOT NULL,
	"project_id" uuid NOT NULL,
	"debug_id" text NOT NULL,
	"fingerprint" text NOT NULL,
	"event_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "source_map_waits_project_id_debug_id_fingerprint_pk" PRIMARY KEY("project_id","debug_id","fingerprint")
);
--> statement-breakpoint
ALTER TABLE "source_map_waits" ADD CONSTRAINT "source_map_waits_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "source_map_waits" ADD CONSTRAINT "source_map_waits_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;
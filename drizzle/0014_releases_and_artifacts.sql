CREATE TABLE "release_projects" (
	"release_id" uuid NOT NULL,
	"organization_id" text NOT NULL,
	"project_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "release_projects_release_id_project_id_pk" PRIMARY KEY("release_id","project_id")
);
--> statement-breakpoint
CREATE TABLE "releases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" text NOT NULL,
	"version" text NOT NULL,
	"url" text,
	"date_started" timestamp with time zone,
	"date_released" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "artifact_assemblies" (
	"organization_id" text NOT NULL,
	"checksum" text NOT NULL,
	"state" text NOT NULL,
	"detail" text,
	"chunks" text NOT NULL,
	"project_ids" text NOT NULL,
	"release" text,
	"dist" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "artifact_assemblies_organization_id_checksum_pk" PRIMARY KEY("organization_id","checksum")
);
--> statement-breakpoint
CREATE TABLE "artifact_blobs" (
	"organization_id" text NOT NULL,
	"sha1" text NOT NULL,
	"size" integer NOT NULL,
	"data" "bytea",
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "artifact_blobs_organization_id_sha1_pk" PRIMARY KEY("organization_id","sha1")
);
--> statement-breakpoint
CREATE TABLE "artifact_bundle_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"bundle_id" uuid NOT NULL,
	"organization_id" text NOT NULL,
	"project_id" uuid NOT NULL,
	"type" text NOT NULL,
	"url" text NOT NULL,
	"debug_id" text,
	"source_map" text,
	"release" text,
	"dist" text,
	"sha1" text NOT NULL,
	"size" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "artifact_bundles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" text NOT NULL,
	"project_id" uuid NOT NULL,
	"checksum" text NOT NULL,
	"bundle_id" text,
	"release" text,
	"dist" text,
	"file_count" integer NOT NULL,
	"size" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "artifact_chunks" (
	"organization_id" text NOT NULL,
	"sha1" text NOT NULL,
	"size" integer NOT NULL,
	"data" "bytea",
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "artifact_chunks_organization_id_sha1_pk" PRIMARY KEY("organization_id","sha1")
);
--> statement-breakpoint
ALTER TABLE "release_projects" ADD CONSTRAINT "release_projects_release_id_releases_id_fk" FOREIGN KEY ("release_id") REFERENCES "public"."releases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_projects" ADD CONSTRAINT "release_projects_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_projects" ADD CONSTRAINT "release_projects_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "releases" ADD CONSTRAINT "releases_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "artifact_assemblies" ADD CONSTRAINT "artifact_assemblies_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "artifact_blobs" ADD CONSTRAINT "artifact_blobs_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "artifact_bundle_files" ADD CONSTRAINT "artifact_bundle_files_bundle_id_artifact_bundles_id_fk" FOREIGN KEY ("bundle_id") REFERENCES "public"."artifact_bundles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "artifact_bundles" ADD CONSTRAINT "artifact_bundles_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "artifact_bundles" ADD CONSTRAINT "artifact_bundles_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "artifact_chunks" ADD CONSTRAINT "artifact_chunks_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "release_projects_org_project_idx" ON "release_projects" USING btree ("organization_id","project_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "releases_organization_version_idx" ON "releases" USING btree ("organization_id","version");--> statement-breakpoint
CREATE INDEX "releases_organization_created_idx" ON "releases" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "artifact_files_debug_id_idx" ON "artifact_bundle_files" USING btree ("project_id","debug_id","type") WHERE "artifact_bundle_files"."debug_id" is not null;--> statement-breakpoint
CREATE INDEX "artifact_files_release_url_idx" ON "artifact_bundle_files" USING btree ("project_id","release","dist","url") WHERE "artifact_bundle_files"."release" is not null;--> statement-breakpoint
CREATE INDEX "artifact_files_bundle_idx" ON "artifact_bundle_files" USING btree ("bundle_id");--> statement-breakpoint
CREATE INDEX "artifact_files_org_sha1_idx" ON "artifact_bundle_files" USING btree ("organization_id","sha1");--> statement-breakpoint
CREATE INDEX "artifact_bundles_org_project_created_idx" ON "artifact_bundles" USING btree ("organization_id","project_id","created_at");--> statement-breakpoint
CREATE INDEX "artifact_bundles_project_release_idx" ON "artifact_bundles" USING btree ("project_id","release","dist");--> statement-breakpoint
CREATE INDEX "artifact_bundles_org_checksum_idx" ON "artifact_bundles" USING btree ("organization_id","checksum");
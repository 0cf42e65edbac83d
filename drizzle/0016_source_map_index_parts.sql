CREATE TABLE "source_map_index_parts" (
	"organization_id" text NOT NULL,
	"sha1" text NOT NULL,
	"part" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "source_map_index_parts_organization_id_sha1_part_pk" PRIMARY KEY("organization_id","sha1","part")
);
--> statement-breakpoint
ALTER TABLE "source_map_index_parts" ADD CONSTRAINT "source_map_index_parts_organization_id_sha1_artifact_blobs_organization_id_sha1_fk" FOREIGN KEY ("organization_id","sha1") REFERENCES "public"."artifact_blobs"("organization_id","sha1") ON DELETE cascade ON UPDATE no action;
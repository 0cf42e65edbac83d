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
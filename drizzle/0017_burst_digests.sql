CREATE TABLE "alert_rule_bursts" (
	"rule_id" uuid PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"digest_due_at" timestamp with time zone,
	"last_digest_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "alert_notifications" ADD COLUMN "held" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_notifications" ADD COLUMN "digest_id" uuid;--> statement-breakpoint
ALTER TABLE "alert_rule_hours" ADD COLUMN "regressions_sent" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_rule_bursts" ADD CONSTRAINT "alert_rule_bursts_rule_id_alert_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."alert_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_notifications_held_idx" ON "alert_notifications" USING btree ("rule_id") WHERE "alert_notifications"."held";--> statement-breakpoint
CREATE INDEX "alert_notifications_digest_idx" ON "alert_notifications" USING btree ("digest_id") WHERE "alert_notifications"."digest_id" is not null;
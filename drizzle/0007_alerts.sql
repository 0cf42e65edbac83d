CREATE TABLE "jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"payload" text NOT NULL,
	"singleton_key" text,
	"state" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 5 NOT NULL,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"lease" uuid,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_actions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" text NOT NULL,
	"project_id" uuid NOT NULL,
	"rule_id" uuid NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"type" text NOT NULL,
	"recipients" text,
	"url_sealed" text,
	"url_host" text,
	"signing_secret_sealed" text
);
--> statement-breakpoint
CREATE TABLE "alert_email_opt_outs" (
	"user_id" text NOT NULL,
	"organization_id" text NOT NULL,
	"project_id" uuid NOT NULL,
	CONSTRAINT "alert_email_opt_outs_user_id_project_id_pk" PRIMARY KEY("user_id","project_id")
);
--> statement-breakpoint
CREATE TABLE "alert_notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" text NOT NULL,
	"project_id" uuid NOT NULL,
	"rule_id" uuid,
	"rule_name" text NOT NULL,
	"action_id" uuid,
	"issue_id" uuid,
	"issue_title" text,
	"channel" text NOT NULL,
	"kind" text NOT NULL,
	"reason" text NOT NULL,
	"status" text NOT NULL,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"suppressed_count" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "alert_rule_hours" (
	"rule_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"suppressed" integer DEFAULT 0 NOT NULL,
	"digested_at" timestamp with time zone,
	CONSTRAINT "alert_rule_hours_rule_id_hour_pk" PRIMARY KEY("rule_id","hour")
);
--> statement-breakpoint
CREATE TABLE "alert_rule_issue_fires" (
	"rule_id" uuid NOT NULL,
	"subject_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"last_fired_at" timestamp with time zone NOT NULL,
	CONSTRAINT "alert_rule_issue_fires_rule_id_subject_id_reason_pk" PRIMARY KEY("rule_id","subject_id","reason")
);
--> statement-breakpoint
CREATE TABLE "alert_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" text NOT NULL,
	"project_id" uuid NOT NULL,
	"name" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"trigger_type" text NOT NULL,
	"trigger" text NOT NULL,
	"filters" text DEFAULT '{}' NOT NULL,
	"interval_minutes" integer DEFAULT 30 NOT NULL,
	"max_per_hour" integer DEFAULT 20 NOT NULL,
	"snoozed_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "issue_minute_counts" (
	"organization_id" text NOT NULL,
	"project_id" uuid NOT NULL,
	"issue_id" uuid NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"count" bigint NOT NULL,
	CONSTRAINT "issue_minute_counts_issue_id_minute_pk" PRIMARY KEY("issue_id","minute")
);
--> statement-breakpoint
ALTER TABLE "alert_actions" ADD CONSTRAINT "alert_actions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_actions" ADD CONSTRAINT "alert_actions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_actions" ADD CONSTRAINT "alert_actions_rule_id_alert_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."alert_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_email_opt_outs" ADD CONSTRAINT "alert_email_opt_outs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_email_opt_outs" ADD CONSTRAINT "alert_email_opt_outs_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_email_opt_outs" ADD CONSTRAINT "alert_email_opt_outs_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_notifications" ADD CONSTRAINT "alert_notifications_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_notifications" ADD CONSTRAINT "alert_notifications_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_notifications" ADD CONSTRAINT "alert_notifications_rule_id_alert_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."alert_rules"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_notifications" ADD CONSTRAINT "alert_notifications_action_id_alert_actions_id_fk" FOREIGN KEY ("action_id") REFERENCES "public"."alert_actions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_notifications" ADD CONSTRAINT "alert_notifications_issue_id_issues_id_fk" FOREIGN KEY ("issue_id") REFERENCES "public"."issues"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_rule_hours" ADD CONSTRAINT "alert_rule_hours_rule_id_alert_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."alert_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_rule_issue_fires" ADD CONSTRAINT "alert_rule_issue_fires_rule_id_alert_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."alert_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_minute_counts" ADD CONSTRAINT "issue_minute_counts_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_minute_counts" ADD CONSTRAINT "issue_minute_counts_issue_id_issues_id_fk" FOREIGN KEY ("issue_id") REFERENCES "public"."issues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_name_singleton_queued_idx" ON "jobs" USING btree ("name","singleton_key") WHERE state = 'queued' and singleton_key is not null;--> statement-breakpoint
CREATE INDEX "jobs_name_run_at_idx" ON "jobs" USING btree ("name","run_at");--> statement-breakpoint
CREATE INDEX "alert_actions_org_project_rule_idx" ON "alert_actions" USING btree ("organization_id","project_id","rule_id");--> statement-breakpoint
CREATE INDEX "alert_email_opt_outs_org_project_idx" ON "alert_email_opt_outs" USING btree ("organization_id","project_id");--> statement-breakpoint
CREATE INDEX "alert_notifications_org_project_created_idx" ON "alert_notifications" USING btree ("organization_id","project_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "alert_rules_org_project_idx" ON "alert_rules" USING btree ("organization_id","project_id","created_at");--> statement-breakpoint
CREATE INDEX "issue_minute_counts_project_minute_idx" ON "issue_minute_counts" USING btree ("project_id","minute");
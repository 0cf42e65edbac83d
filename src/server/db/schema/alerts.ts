import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { organization, user } from "./auth";
import { issues } from "./issues";
import { projects } from "./projects";

/** A project's alert rule: a trigger, filters, storm limits; its actions are rows of alert_actions. */
export const alertRules = pgTable(
  "alert_rules",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    /** new_issue | regression | issue_frequency | event_rate | level */
    triggerType: text("trigger_type").notNull(),
    /** The trigger as JSON text: { type, count?, minutes?, level? }. */
    trigger: text("trigger").notNull(),
    /** The filters as JSON text: { environments?, minLevel?, textContains?, tags? }. */
    filters: text("filters").notNull().default("{}"),
    intervalMinutes: integer("interval_minutes").notNull().default(30),
    maxPerHour: integer("max_per_hour").notNull().default(20),
    snoozedUntil: timestamp("snoozed_until", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("alert_rules_org_project_idx").on(t.organizationId, t.projectId, t.createdAt)],
);

/** One way a rule notifies. Webhook URLs and signing secrets are sealed (secrets/secret-box.ts). */
export const alertActions = pgTable(
  "alert_actions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    ruleId: uuid("rule_id")
      .notNull()
      .references(() => alertRules.id, { onDelete: "cascade" }),
    position: integer("position").notNull().default(0),
    /** email | webhook | slack | discord | teams */
    type: text("type").notNull(),
    /** Email recipients as JSON text: { to, teamId?, userIds? }. */
    recipients: text("recipients"),
    /** The target URL, sealed: Slack/Discord/Teams URLs are credentials themselves. */
    urlSealed: text("url_sealed"),
    /** Where the URL points, for display: scheme://host only. */
    urlHost: text("url_host"),
    signingSecretSealed: text("signing_secret_sealed"),
  },
  (t) => [index("alert_actions_org_project_rule_idx").on(t.organizationId, t.projectId, t.ruleId)],
);

/** The notification log: every attempt of every action, newest first per project. */
export const alertNotifications = pgTable(
  "alert_notifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    ruleId: uuid("rule_id").references(() => alertRules.id, { onDelete: "set null" }),
    ruleName: text("rule_name").notNull(),
    actionId: uuid("action_id").references(() => alertActions.id, { onDelete: "set null" }),
    issueId: uuid("issue_id").references(() => issues.id, { onDelete: "set null" }),
    issueTitle: text("issue_title"),
    channel: text("channel").notNull(),
    /** alert | digest | test */
    kind: text("kind").notNull(),
    /** What triggered it: new_issue, regression, issue_frequency, event_rate, level, digest, test. */
    reason: text("reason").notNull(),
    /** pending | sent | suppressed | failed */
    status: text("status").notNull(),
    error: text("error"),
    attempts: integer("attempts").notNull().default(0),
    /** For a digest: how many notifications the storm guard held back. */
    suppressedCount: integer("suppressed_count"),
    /** A suppressed alert the storm guard held for its rule's next digest, until a digest takes it. */
    held: boolean("held").notNull().default(false),
    /** The digest (the notification of the same action) that listed this held alert. */
    digestId: uuid("digest_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (t) => [
    index("alert_notifications_org_project_created_idx").on(t.organizationId, t.projectId, t.createdAt.desc()),
    // Only the few alerts waiting for a digest are in it.
    index("alert_notifications_held_idx")
      .on(t.ruleId)
      .where(sql`${t.held}`),
    index("alert_notifications_digest_idx")
      .on(t.digestId)
      .where(sql`${t.digestId} is not null`),
  ],
);

/** When a rule last fired for an issue and reason: the once-per-interval guard (a compare-and-set on this row). */
export const alertRuleIssueFires = pgTable(
  "alert_rule_issue_fires",
  {
    ruleId: uuid("rule_id")
      .notNull()
      .references(() => alertRules.id, { onDelete: "cascade" }),
    /** An issue id, or the project id for project-wide triggers (event rate). */
    subjectId: uuid("subject_id").notNull(),
    /** A regression is news even minutes after the issue's "new issue" alert: each reason has its own interval. */
    reason: text("reason").notNull(),
    lastFiredAt: timestamp("last_fired_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.ruleId, t.subjectId, t.reason] })],
);

/**
 * A rule's current burst: alerts (regressions apart) that follow each other with less than
 * BURST_QUIET_MINUTES between them. The first BURST_INDIVIDUAL_ALERTS are sent one by one; the
 * rest are held for a digest (alert-fire.ts). The row is also the lock that orders two evaluations
 * of one rule.
 */
export const alertRuleBursts = pgTable("alert_rule_bursts", {
  ruleId: uuid("rule_id")
    .primaryKey()
    .references(() => alertRules.id, { onDelete: "cascade" }),
  startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
  /** The burst's latest alert, sent or held: the quiet period runs from here. */
  lastAt: timestamp("last_at", { withTimezone: true }).notNull(),
  /** Alerts of this burst sent one by one. */
  sent: integer("sent").notNull().default(0),
  /** When the digest job now queued for this rule is due; null when none is (set and cleared under this row's lock). */
  digestDueAt: timestamp("digest_due_at", { withTimezone: true }),
  /** When this burst's latest digest went out (the next one keeps its distance). */
  lastDigestAt: timestamp("last_digest_at", { withTimezone: true }),
});

/** Notifications per rule and UTC hour: the hourly cap, and what the digest reports. */
export const alertRuleHours = pgTable(
  "alert_rule_hours",
  {
    ruleId: uuid("rule_id")
      .notNull()
      .references(() => alertRules.id, { onDelete: "cascade" }),
    hour: timestamp("hour", { withTimezone: true }).notNull(),
    /** Alerts sent individually this hour, regressions apart. */
    sent: integer("sent").notNull().default(0),
    /** Regressions sent individually this hour: their own budget, so other issues' noise never holds one back. */
    regressionsSent: integer("regressions_sent").notNull().default(0),
    suppressed: integer("suppressed").notNull().default(0),
    /** Set when the hour's digest went out, so a retried digest job sends nothing twice. */
    digestedAt: timestamp("digested_at", { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.ruleId, t.hour] })],
);

/** A user who does not want alert emails of a project. */
export const alertEmailOptOuts = pgTable(
  "alert_email_opt_outs",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.projectId] }), index("alert_email_opt_outs_org_project_idx").on(t.organizationId, t.projectId)],
);

/**
 * Occurrences per issue and arrival minute, bumped at ingest: spike and event-rate rules read a
 * few of these rows instead of counting occurrences. Rows older than two hours are deleted by the
 * frequency check (rules look back at most 60 minutes).
 */
export const issueMinuteCounts = pgTable(
  "issue_minute_counts",
  {
    organizationId: text("organization_id").notNull(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    issueId: uuid("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    minute: timestamp("minute", { withTimezone: true }).notNull(),
    count: bigint("count", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.issueId, t.minute] }), index("issue_minute_counts_project_minute_idx").on(t.projectId, t.minute)],
);

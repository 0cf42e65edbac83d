import { sql } from "drizzle-orm";
import { bigint, boolean, date, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { organization } from "./auth";
import { jsonText } from "./json-text";
import { projects } from "./projects";

/** One row per (project, fingerprint): the grouped "issue", with counters kept at ingest. */
export const issues = pgTable(
  "issues",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    fingerprint: text("fingerprint").notNull(),
    // Which grouping algorithm produced the fingerprint, so a future one can regroup.
    groupingVersion: smallint("grouping_version").notNull(),
    title: text("title").notNull(),
    culprit: text("culprit"),
    level: text("level").notNull(),
    platform: text("platform"),
    status: text("status").notNull().default("OPEN"),
    severity: text("severity").notNull(),
    isRegression: boolean("is_regression").notNull().default(false),
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
    firstSeen: timestamp("first_seen", { withTimezone: true }).notNull(),
    lastSeen: timestamp("last_seen", { withTimezone: true }).notNull(),
    eventCount: bigint("event_count", { mode: "number" }).notNull().default(0),
    userCount: integer("user_count").notNull().default(0),
    firstRelease: text("first_release"),
    lastRelease: text("last_release"),
    environments: text("environments")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    lastOccurrenceId: uuid("last_occurrence_id"),
    /** The newest occurrence's message (trimmed), kept at ingest so free-text search covers it. */
    lastMessage: text("last_message"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("issues_project_fingerprint_idx").on(t.projectId, t.fingerprint),
    index("issues_org_project_last_seen_idx").on(t.organizationId, t.projectId, t.lastSeen.desc()),
    index("issues_org_project_event_count_idx").on(t.organizationId, t.projectId, t.eventCount.desc()),
    // The issue list's other index-served sorts (severity, status and title sort ≤ 20,000 rows in memory).
    index("issues_org_project_first_seen_idx").on(t.organizationId, t.projectId, t.firstSeen.desc()),
    index("issues_org_project_user_count_idx").on(t.organizationId, t.projectId, t.userCount.desc()),
  ],
);

/**
 * The spec's "exception": one stored occurrence. Narrow columns for lists and filters; the whole
 * normalised event (chain, frames, request, breadcrumbs, …) lives in `data`.
 */
export const occurrences = pgTable(
  "occurrences",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: text("organization_id").notNull(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    issueId: uuid("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull(),
    timestamp: timestamp("timestamp", { withTimezone: true }).notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    level: text("level").notNull(),
    platform: text("platform"),
    environment: text("environment"),
    environmentBucket: text("environment_bucket").notNull(),
    release: text("release"),
    name: text("name"),
    message: text("message"),
    userKey: text("user_key"),
    /** The whole normalised event (see NormalizedOccurrence), read only by the exception detail. */
    data: jsonText("data").notNull(),
  },
  (t) => [
    // Duplicate deliveries of one event id are stored once.
    uniqueIndex("occurrences_project_event_id_idx").on(t.projectId, t.eventId),
    index("occurrences_org_issue_received_idx").on(t.organizationId, t.issueId, t.receivedAt.desc()),
    index("occurrences_org_project_received_idx").on(t.organizationId, t.projectId, t.receivedAt.desc()),
  ],
);

/** Distinct users per issue (the "users affected" counter only grows on a first sighting). */
export const issueUsers = pgTable(
  "issue_users",
  {
    issueId: uuid("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    userKey: text("user_key").notNull(),
  },
  (t) => [primaryKey({ columns: [t.issueId, t.userKey] })],
);

/** Hourly and daily occurrence counts per issue and environment bucket, bumped at ingest. */
export const issueHourlyCounts = pgTable(
  "issue_hourly_counts",
  {
    organizationId: text("organization_id").notNull(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    issueId: uuid("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    environment: text("environment").notNull(),
    hour: timestamp("hour", { withTimezone: true }).notNull(),
    count: bigint("count", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.issueId, t.environment, t.hour] }), index("issue_hourly_counts_project_hour_idx").on(t.organizationId, t.projectId, t.hour)],
);

export const issueDailyCounts = pgTable(
  "issue_daily_counts",
  {
    organizationId: text("organization_id").notNull(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    issueId: uuid("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    environment: text("environment").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    count: bigint("count", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.issueId, t.environment, t.day] }), index("issue_daily_counts_project_day_idx").on(t.organizationId, t.projectId, t.day)],
);

/** Native SDK product-analytics events (name + JSON properties) for the Events screen. */
export const events = pgTable(
  "events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: text("organization_id").notNull(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    properties: jsonb("properties").notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("events_org_project_created_idx").on(t.organizationId, t.projectId, t.createdAt.desc()),
    index("events_org_project_name_created_idx").on(t.organizationId, t.projectId, t.name, t.createdAt.desc()),
  ],
);

/** What happened to what SDKs sent, per project and hour: accepted, rate_limited, invalid, … */
export const ingestOutcomes = pgTable(
  "ingest_outcomes",
  {
    organizationId: text("organization_id").notNull(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    hour: timestamp("hour", { withTimezone: true }).notNull(),
    outcome: text("outcome").notNull(),
    reason: text("reason").notNull().default(""),
    category: text("category").notNull().default("error"),
    count: bigint("count", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.hour, t.outcome, t.reason, t.category] })],
);

/** Fixed-window ingest rate-limit counters, shared by replicas (Redis replaces this when set). */
export const ingestRateCounters = pgTable(
  "ingest_rate_counters",
  {
    key: text("key").notNull(),
    windowStart: bigint("window_start", { mode: "number" }).notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
);

/** Occurrences per tag value of an issue (the detail screen's tags breakdown), bumped at ingest. */
export const issueTagCounts = pgTable(
  "issue_tag_counts",
  {
    organizationId: text("organization_id").notNull(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    issueId: uuid("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    value: text("value").notNull(),
    count: bigint("count", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.issueId, t.key, t.value] })],
);

/** Who changed an issue's status or severity, and when (the detail screen's activity). */
export const issueActivities = pgTable(
  "issue_activities",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: text("organization_id").notNull(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    issueId: uuid("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    actorUserId: text("actor_user_id"),
    kind: text("kind").notNull(),
    fromValue: text("from_value"),
    toValue: text("to_value"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("issue_activities_org_issue_created_idx").on(t.organizationId, t.issueId, t.createdAt.desc())],
);

/**
 * Occurrences per project, environment bucket and UTC day: project-wide charts read a few rows
 * instead of summing every issue's rollup (20,000 issues × 30 days is too many for one chart).
 */
export const projectDailyCounts = pgTable(
  "project_daily_counts",
  {
    organizationId: text("organization_id").notNull(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    environment: text("environment").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    count: bigint("count", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.environment, t.day] })],
);

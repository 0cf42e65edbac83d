import { sql } from "drizzle-orm";
import { bigint, boolean, date, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { organization } from "./auth";
import { jsonText } from "./json-text";
import { projects } from "./projects";

/**
 * Data settings (issue 35): retention and server-side scrubbing. One row per organization
 * (`project_id` null) holding its defaults, and at most one per project holding overrides. In a
 * project's row a null column means "as the organization says"; in the organization's row a null
 * column means the product default (settings/data-settings.ts resolves the three layers).
 */
export const dataSettings = pgTable(
  "data_settings",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    projectId: uuid("project_id").references(() => projects.id, { onDelete: "cascade" }),
    /** Days occurrences are kept; capped by the plan on the hosted deployment. */
    retentionDays: integer("retention_days"),
    /** Sentry's default sensitive key names and credit-card numbers are scrubbed. */
    scrubDefaults: boolean("scrub_defaults"),
    /** false drops every IP address (request, user, `{{auto}}`) before it is stored. */
    storeIpAddresses: boolean("store_ip_addresses"),
    /** Extra key names whose values are scrubbed (string[]). */
    sensitiveFields: jsonText("sensitive_fields"),
    /** Key names never scrubbed, even when a default or a rule would (string[]). */
    safeFields: jsonText("safe_fields"),
    /** Value rules: { type, pattern?, method, replacement? }[]. */
    rules: jsonText("rules"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("data_settings_organization_idx")
      .on(t.organizationId)
      .where(sql`project_id is null`),
    uniqueIndex("data_settings_project_idx")
      .on(t.projectId)
      .where(sql`project_id is not null`),
  ],
);

/** Values scrubbed at ingest per project and UTC day ("n values scrubbed today"), bumped in the ingest batch. */
export const scrubDailyCounts = pgTable(
  "scrub_daily_counts",
  {
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    count: bigint("count", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.day] })],
);

/**
 * A deletion asked for (issue 35): an issue, a project, an organization, or a person's data
 * (erasure). Runs as a job in bounded batches; `done` of `total` is its progress. The row outlives
 * what it deleted (no foreign key to the target) as the audit of who asked and how much went; for
 * an erasure `target` names the kind of identifier and a SHA-256 of its value, never the value.
 */
export const deletions = pgTable(
  "deletions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: text("organization_id").notNull(),
    /** issue | project | organization | user_data */
    kind: text("kind").notNull(),
    /** The deleted thing's id (issue/project/organization), or `email:<sha256>` etc. for an erasure. */
    target: text("target").notNull(),
    /** What the confirmation named (an issue title, a project name), kept for the audit. */
    targetName: text("target_name"),
    /** pending | running | done | failed */
    status: text("status").notNull().default("pending"),
    done: bigint("done", { mode: "number" }).notNull().default(0),
    total: bigint("total", { mode: "number" }).notNull().default(0),
    /** Who asked: `user:<id>` or `token:<id>`. */
    requestedBy: text("requested_by").notNull(),
    error: text("error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [index("deletions_organization_created_idx").on(t.organizationId, t.createdAt.desc())],
);

/**
 * The maintenance job's runs (retention/maintenance-run.ts): partitions ahead, retention. The row
 * of a run still going is its lease — the partial unique index lets one run at a time exist across
 * every replica — kept alive by `heartbeat_at`; a run whose heartbeat stopped (its process died) is
 * closed by the next. `summary` says what went (partitions dropped, rows cleaned, days created).
 */
export const maintenanceRuns = pgTable(
  "maintenance_runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Always "maintenance": the column the one-running index is on. */
    lane: text("lane").notNull().default("maintenance"),
    /** The moment the run acted as of (now, or `--as-of`). */
    asOf: timestamp("as_of", { withTimezone: true }).notNull(),
    /** Which process ran it (host and pid), for the operator reading the table. */
    holder: text("holder").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    heartbeatAt: timestamp("heartbeat_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    summary: jsonText("summary"),
    error: text("error"),
  },
  (t) => [
    uniqueIndex("maintenance_runs_one_running_idx")
      .on(t.lane)
      .where(sql`finished_at is null`),
    index("maintenance_runs_started_idx").on(t.startedAt.desc()),
  ],
);

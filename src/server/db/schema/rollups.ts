import { bigint, date, index, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { issues } from "./issues";
import { projects } from "./projects";

// Occurrence counts kept beside the issues and bumped at ingest, so charts never count occurrences.

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

import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { organization } from "./auth";
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
    /** Set when a deletion of the issue is under way (deletions table): it is gone for every reader at once. */
    deletionId: uuid("deletion_id"),
    userCount: integer("user_count").notNull().default(0),
    firstRelease: text("first_release"),
    /**
     * "Resolved in a release": the version whose events still see the issue resolved or reopen it.
     * With `resolvedInNextRelease`, the project's latest release when it was resolved — events from
     * it or an older release keep it resolved, a newer one reopens it. Without, the named version is
     * the first that must no longer see it — older releases keep it resolved, it or newer reopen it.
     * Releases are ordered by creation time. Cleared when the issue changes status again.
     */
    resolvedInRelease: text("resolved_in_release"),
    resolvedInNextRelease: boolean("resolved_in_next_release").notNull().default(false),
    lastRelease: text("last_release"),
    environments: text("environments")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    lastOccurrenceId: uuid("last_occurrence_id"),
    /** The newest occurrence's message (trimmed), kept at ingest so free-text search covers it. */
    lastMessage: text("last_message"),
    /**
     * The ingest statement that last reopened this issue as a regression (a token it passes). An
     * upsert's RETURNING sees only the new row, so this is how one statement tells the regressions
     * it made (and records in issue_activities) from those a concurrent statement made just before.
     */
    lastRegressionBatch: uuid("last_regression_batch"),
    /**
     * Set by the ingest statement that creates or reopens the issue, cleared once alerts have
     * evaluated it. One still set a while later was committed by a process that stopped before it
     * handed the issue to alerts: the alerts' sweep hands it on (alerts/alert-facts-sweep.ts).
     */
    alertPendingSince: timestamp("alert_pending_since", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // A deferrable constraint since migration 0010 (drizzle cannot declare that): checked at the end
    // of a statement, so concurrent ingest upserts settle on their arbiter, the primary key.
    uniqueIndex("issues_project_fingerprint_idx").on(t.projectId, t.fingerprint),
    // deletion_id last (null but for an issue being deleted): the list's total, filtered on it, stays
    // an index-only count (with it only in the heap, 20,000 issues counted in 12 ms instead of 3).
    index("issues_org_project_last_seen_idx").on(t.organizationId, t.projectId, t.lastSeen.desc(), t.deletionId),
    index("issues_org_project_event_count_idx").on(t.organizationId, t.projectId, t.eventCount.desc()),
    // The issue list's other index-served sorts (severity, status and title sort ≤ 20,000 rows in memory).
    index("issues_org_project_first_seen_idx").on(t.organizationId, t.projectId, t.firstSeen.desc()),
    index("issues_org_project_user_count_idx").on(t.organizationId, t.projectId, t.userCount.desc()),
    // Only the few issues alerts have not evaluated yet are in it.
    index("issues_alert_pending_idx")
      .on(t.alertPendingSince)
      .where(sql`${t.alertPendingSince} is not null`),
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

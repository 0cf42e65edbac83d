import { date, index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { issues } from "./issues";
import { jsonText } from "./json-text";
import { projects } from "./projects";

/**
 * The spec's "exception": one stored occurrence. Narrow columns for lists and filters; the whole
 * normalised event (chain, frames, request, breadcrumbs, …) lives in `data`.
 *
 * Partitioned by `received_on`, the UTC day it was received (migration 0025, written by hand:
 * drizzle cannot declare partitions): one partition a day plus a default one, so retention drops
 * whole days (retention/occurrence-partitions.ts). A partition key must be part of every unique
 * index, hence the day in the primary key and in the event id's: duplicate deliveries are stored
 * once within a day, and ingest also looks at the day before (batch-commit.ts).
 */
export const occurrences = pgTable(
  "occurrences",
  {
    id: uuid("id").notNull().defaultRandom(),
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
    /** received_at's UTC day, the partition key (a check constraint keeps the two in step). */
    receivedOn: date("received_on", { mode: "string" }).notNull(),
    level: text("level").notNull(),
    platform: text("platform"),
    environment: text("environment"),
    environmentBucket: text("environment_bucket").notNull(),
    release: text("release"),
    name: text("name"),
    message: text("message"),
    userKey: text("user_key"),
    /**
     * The event's own fingerprint (v2), whatever issue it went to: unmerge moves events by it. Null
     * on events stored before grouping v2; merge fills in their issue's fingerprint.
     */
    fingerprint: text("fingerprint"),
    /** The whole normalised event (see NormalizedOccurrence), read only by the exception detail. */
    data: jsonText("data").notNull(),
  },
  (t) => [
    primaryKey({ name: "occurrences_pkey", columns: [t.id, t.receivedOn] }),
    // Duplicate deliveries of one event id are stored once (within a day: see above).
    uniqueIndex("occurrences_project_event_id_idx").on(t.projectId, t.eventId, t.receivedOn),
    // Issue first, not organization first: the issue foreign key's cascade, merge and unmerge find
    // occurrences by issue alone, and without this every issue row deleted scanned the whole table
    // (1.1 ms an issue at 200k occurrences, growing with the table). An issue lies in one
    // organization, so the readers' organization filter costs nothing here.
    // The day leads the time so that each partition's index gives rows in (received_on,
    // received_at) order: lists read the partitions newest first and stop (an ordered Append).
    // The day is DESC NULLS FIRST, PostgreSQL's own DESC, because that is the order it knows the
    // partitions in; with NULLS LAST it merges an index scan of every partition (db/order.ts).
    index("occurrences_issue_received_idx").on(t.issueId, t.receivedOn.desc().nullsFirst(), t.receivedAt.desc()),
    index("occurrences_org_project_received_idx").on(t.organizationId, t.projectId, t.receivedOn.desc().nullsFirst(), t.receivedAt.desc()),
  ],
);

import { bigint, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { projects } from "./projects";

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

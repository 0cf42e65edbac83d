import { sql } from "drizzle-orm";
import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

/**
 * The database job queue (jobs/job-queue.ts): one row per job waiting or running. A row
 * is deleted when its handler succeeds or its attempts run out, so the table stays small.
 * `lease` names the claim that holds an active job: a runner whose lease expired and was taken
 * over can no longer complete or fail it.
 */
export const jobs = pgTable(
  "jobs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    /** The JSON payload as text. */
    payload: text("payload").notNull(),
    singletonKey: text("singleton_key"),
    /** queued | active */
    state: text("state").notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull().default(5),
    runAt: timestamp("run_at", { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    lease: uuid("lease"),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // At most one WAITING job per (name, singleton key); a running one does not block the next.
    uniqueIndex("jobs_name_singleton_queued_idx")
      .on(t.name, t.singletonKey)
      .where(sql`state = 'queued' and singleton_key is not null`),
    index("jobs_name_run_at_idx").on(t.name, t.runAt),
  ],
);

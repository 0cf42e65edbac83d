import { index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { projects } from "./projects";

/**
 * Native SDK product-analytics events (name + JSON properties) for the Events screen. Partitioned
 * by `created_at`, a day a partition (migration 0025), like occurrences, for retention.
 */
export const events = pgTable(
  "events",
  {
    id: uuid("id").notNull().defaultRandom(),
    organizationId: text("organization_id").notNull(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    properties: jsonb("properties").notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: "events_pkey", columns: [t.id, t.createdAt] }),
    index("events_org_project_created_idx").on(t.organizationId, t.projectId, t.createdAt.desc()),
    index("events_org_project_name_created_idx").on(t.organizationId, t.projectId, t.name, t.createdAt.desc()),
  ],
);

import { index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { projects } from "./projects";

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

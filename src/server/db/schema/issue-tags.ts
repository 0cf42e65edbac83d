import { bigint, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { issues } from "./issues";
import { projects } from "./projects";

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

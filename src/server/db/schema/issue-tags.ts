import { sql } from "drizzle-orm";
import { bigint, index, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
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
  (t) => [
    primaryKey({ columns: [t.issueId, t.key, t.value] }),
    // Events per release (releases/release-list.queries.ts) without reading every tag of the project.
    index("issue_tag_counts_project_release_idx")
      .on(t.projectId, t.value)
      .where(sql`${t.key} = 'release'`),
  ],
);

import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { issues } from "./issues";
import { projects } from "./projects";

/** Who changed an issue's status or severity, and when (the detail screen's activity). */
export const issueActivities = pgTable(
  "issue_activities",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: text("organization_id").notNull(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    issueId: uuid("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    actorUserId: text("actor_user_id"),
    /** "agent": made by the AI agent on the actor's approval (IssueActivityEntry.via); null: by the actor. */
    via: text("via"),
    kind: text("kind").notNull(),
    fromValue: text("from_value"),
    toValue: text("to_value"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("issue_activities_org_issue_created_idx").on(t.organizationId, t.issueId, t.createdAt.desc())],
);

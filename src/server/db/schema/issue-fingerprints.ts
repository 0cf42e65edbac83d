import { sql } from "drizzle-orm";
import { index, pgTable, primaryKey, smallint, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { issues } from "./issues";
import { projects } from "./projects";

/**
 * Which issue a fingerprint's events go to. Every issue's own fingerprint has a row (written with
 * the issue; migration 0008 added those of issues made before this table). Ingest looks the event's
 * v2 fingerprint up here, and its v1 fingerprint when the project has v1 issues, in the same
 * statement that stores the event, so a v2 fingerprint of a v1 issue is linked, not a new issue;
 * merge re-points rows to the merged issue and unmerge points chosen rows at new issues.
 * The stored parts are what "why grouped" shows and what "similar issues" compares.
 */
export const issueFingerprints = pgTable(
  "issue_fingerprints",
  {
    organizationId: text("organization_id").notNull(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    fingerprint: text("fingerprint").notNull(),
    issueId: uuid("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    groupingVersion: smallint("grouping_version").notNull(),
    /** The grouping components as a JSON array text; null for a v1 fingerprint recorded by merge. */
    components: text("components"),
    exceptionType: text("exception_type"),
    crashFrame: text("crash_frame"),
    messageTemplate: text("message_template"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.fingerprint] }),
    index("issue_fingerprints_org_issue_idx").on(t.organizationId, t.issueId),
    index("issue_fingerprints_org_project_crash_frame_idx").on(t.organizationId, t.projectId, t.crashFrame),
    index("issue_fingerprints_org_project_exception_type_idx").on(t.organizationId, t.projectId, t.exceptionType),
    // Whether a project has v1 issues at all (ingest's key lookup asks): few rows, and none in a new project.
    index("issue_fingerprints_v1_project_idx")
      .on(t.projectId)
      .where(sql`${t.groupingVersion} = 1`),
  ],
);

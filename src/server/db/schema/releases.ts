import { index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { organization } from "./auth";
import { projects } from "./projects";

/**
 * Releases as the Sentry tool API creates them (`sentry-cli releases new`, a release-based
 * source-map upload). An organization-wide version string with its projects beside it (Sentry's
 * shape: one release, many projects), so what issue 34 adds — commits, deploys, health, first and
 * last events per project — hangs off these rows without changing them.
 */
export const releases = pgTable(
  "releases",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    version: text("version").notNull(),
    /** The `url` sentry-cli may send (`--url`): where the release can be seen. */
    url: text("url"),
    dateStarted: timestamp("date_started", { withTimezone: true }),
    /** Set by `releases finalize` (or `new --finalize`); null while the release is unreleased. */
    dateReleased: timestamp("date_released", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("releases_organization_version_idx").on(t.organizationId, t.version),
    index("releases_organization_created_idx").on(t.organizationId, t.createdAt),
  ],
);

/** The projects of a release. */
export const releaseProjects = pgTable(
  "release_projects",
  {
    releaseId: uuid("release_id")
      .notNull()
      .references(() => releases.id, { onDelete: "cascade" }),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.releaseId, t.projectId] }), index("release_projects_org_project_idx").on(t.organizationId, t.projectId, t.createdAt)],
);

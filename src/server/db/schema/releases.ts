import { boolean, date, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid, bigint, smallint } from "drizzle-orm/pg-core";
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
    /** `open`, or `archived` by `sentry-cli releases archive` (hidden from lists, kept; `restore` opens it). */
    status: text("status").notNull().default("open"),
    /** The `ref` sentry-cli may send (a branch or tag name). */
    ref: text("ref"),
    /** Created because an event or a session named it, not by a tool (`sentry-cli releases new`, an upload). */
    firstSeenInEvent: boolean("first_seen_in_event").notNull().default(false),
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

/**
 * Repositories registered for the organization (settings screen, `POST /api/0/organizations/{org}/repos/`),
 * so `sentry-cli releases set-commits --auto` and `--commit owner/repo@sha` can name them.
 */
export const repositories = pgTable(
  "repositories",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    /** As sentry-cli names it: `owner/repo`. */
    name: text("name").notNull(),
    provider: text("provider"),
    url: text("url"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("repositories_organization_name_idx").on(t.organizationId, t.name)],
);

/** The commits of a release, as `sentry-cli releases set-commits` sends them (newest first by `position`). */
export const releaseCommits = pgTable(
  "release_commits",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    releaseId: uuid("release_id")
      .notNull()
      .references(() => releases.id, { onDelete: "cascade" }),
    repositoryId: uuid("repository_id").references(() => repositories.id, { onDelete: "set null" }),
    /** The commit's id (a SHA). */
    commitId: text("commit_id").notNull(),
    message: text("message"),
    authorName: text("author_name"),
    authorEmail: text("author_email"),
    dateCommitted: timestamp("date_committed", { withTimezone: true }),
    /** 0 is the newest commit of the release. */
    position: integer("position").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("release_commits_release_commit_idx").on(t.releaseId, t.commitId),
    index("release_commits_org_release_idx").on(t.organizationId, t.releaseId, t.position),
  ],
);

/** The files a release commit touched (`patch_set`), for suspect commits (matched by path suffix). */
export const releaseCommitFiles = pgTable(
  "release_commit_files",
  {
    releaseCommitId: uuid("release_commit_id")
      .notNull()
      .references(() => releaseCommits.id, { onDelete: "cascade" }),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    filename: text("filename").notNull(),
    /** `A`, `M` or `D`, as sentry-cli sends it. */
    changeType: text("change_type"),
  },
  (t) => [primaryKey({ columns: [t.releaseCommitId, t.filename] })],
);

/** A deploy of a release to an environment (`sentry-cli deploys new -e production`). */
export const deploys = pgTable(
  "deploys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    releaseId: uuid("release_id")
      .notNull()
      .references(() => releases.id, { onDelete: "cascade" }),
    environment: text("environment").notNull(),
    name: text("name"),
    url: text("url"),
    dateStarted: timestamp("date_started", { withTimezone: true }),
    dateFinished: timestamp("date_finished", { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("deploys_org_release_idx").on(t.organizationId, t.releaseId),
    index("deploys_org_environment_finished_idx").on(t.organizationId, t.environment, t.dateFinished),
  ],
);

/**
 * Release health: the SDKs' `session` and `sessions` items counted per project, release,
 * environment (the name as the SDK sent it, capped like other indexed texts; "" when none) and UTC hour at ingest — no row per session. `sessions` counts sessions
 * started; `errored`, `crashed` and `abnormal` count sessions by their worst outcome, each session
 * in at most one of them (crashed > abnormal > errored), so healthy = sessions − the three.
 */
export const releaseHealthHourly = pgTable(
  "release_health_hourly",
  {
    organizationId: text("organization_id").notNull(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    release: text("release").notNull(),
    environment: text("environment").notNull(),
    hour: timestamp("hour", { withTimezone: true }).notNull(),
    sessions: bigint("sessions", { mode: "number" }).notNull().default(0),
    errored: bigint("errored", { mode: "number" }).notNull().default(0),
    crashed: bigint("crashed", { mode: "number" }).notNull().default(0),
    abnormal: bigint("abnormal", { mode: "number" }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.release, t.environment, t.hour] }),
    index("release_health_hourly_project_hour_idx").on(t.organizationId, t.projectId, t.hour),
  ],
);

/**
 * Distinct users (the session's `did`) per project, release, environment (as in the hourly table) and UTC day, and
 * whether any of their sessions that day crashed: crash-free users without a row per session.
 */
export const releaseHealthUsers = pgTable(
  "release_health_users",
  {
    organizationId: text("organization_id").notNull(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    release: text("release").notNull(),
    environment: text("environment").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    userKey: text("user_key").notNull(),
    crashed: boolean("crashed").notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.release, t.environment, t.day, t.userKey] })],
);

/**
 * The worst outcome counted so far of each session that errored, crashed or ended abnormally (healthy
 * sessions have no row): a later update that makes an errored session crash moves it from `errored`
 * to `crashed` in release_health_hourly instead of counting it twice, and a repeated update counts
 * nothing. `outcome` 1 errored, 2 abnormal, 3 crashed; `previous_outcome` is what the last update
 * replaced (0: none), which the ingest statement reads back to move the count. `hour` is the
 * session's started hour: the hourly row its counts went to. Only needed while a session can still
 * send updates: issue 35's retention prunes rows by `hour`.
 */
export const releaseHealthSessions = pgTable(
  "release_health_sessions",
  {
    organizationId: text("organization_id").notNull(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    sessionId: text("session_id").notNull(),
    release: text("release").notNull(),
    environment: text("environment").notNull(),
    hour: timestamp("hour", { withTimezone: true }).notNull(),
    outcome: smallint("outcome").notNull(),
    previousOutcome: smallint("previous_outcome").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.sessionId] }), index("release_health_sessions_hour_idx").on(t.hour)],
);

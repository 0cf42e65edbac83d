import { sql } from "drizzle-orm";
import { bigint, customType, foreignKey, index, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { organization } from "./auth";
import { projects } from "./projects";

/** Raw bytes; null where ARTIFACT_DIR keeps them as files instead (sourcemaps/artifact-storage.ts). */
const bytes = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => "bytea",
  // postgres.js answers a Buffer, PGlite a Uint8Array: both are Uint8Arrays.
  fromDriver: (value) => (value instanceof Uint8Array ? value : new Uint8Array(value as ArrayBufferLike)),
});

/**
 * Chunks sentry-cli uploads (`POST …/chunk-upload/`), content-addressed per organization: the
 * SHA-1 of the uncompressed bytes, verified on upload. Deleted once the bundle they make is assembled.
 */
export const artifactChunks = pgTable(
  "artifact_chunks",
  {
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    sha1: text("sha1").notNull(),
    size: integer("size").notNull(),
    data: bytes("data"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.sha1] })],
);

/** The files of assembled bundles (minified sources, maps), content-addressed per organization and shared by every bundle that holds them. */
export const artifactBlobs = pgTable(
  "artifact_blobs",
  {
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    sha1: text("sha1").notNull(),
    size: integer("size").notNull(),
    data: bytes("data"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.sha1] })],
);

/**
 * The index of a stored source map (sourcemaps/map-index-format.ts), part by part: built when its
 * bundle is assembled, so that symbolicating reads a few kilobytes of it instead of the whole map.
 * Derived from the blob and gone with it; always in the database, also under ARTIFACT_DIR (an
 * index is about as large as its map's mappings and deflated sources). Part 0, the header, is
 * written last: a reader that finds it finds every part.
 */
export const sourceMapIndexParts = pgTable(
  "source_map_index_parts",
  {
    organizationId: text("organization_id").notNull(),
    /** The map's SHA-1 (its blob). */
    sha1: text("sha1").notNull(),
    part: integer("part").notNull(),
    data: bytes("data").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.sha1, t.part] }),
    foreignKey({ columns: [t.organizationId, t.sha1], foreignColumns: [artifactBlobs.organizationId, artifactBlobs.sha1] }).onDelete("cascade"),
  ],
);

/**
 * The state of one `artifactbundle/assemble` request, per organization and bundle checksum:
 * created → assembling → ok | error (with `detail`). The request's chunks, projects, release and
 * dist are kept here for the job that assembles it off the request path.
 */
export const artifactAssemblies = pgTable(
  "artifact_assemblies",
  {
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    checksum: text("checksum").notNull(),
    /** created | assembling | ok | error */
    state: text("state").notNull(),
    detail: text("detail"),
    /** Comma-separated SHA-1s, in bundle order. */
    chunks: text("chunks").notNull(),
    /** Comma-separated project ids. */
    projectIds: text("project_ids").notNull(),
    release: text("release"),
    dist: text("dist"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.checksum] })],
);

/** An assembled artifact bundle as one project holds it (a bundle uploaded for two projects is two rows). */
export const artifactBundles = pgTable(
  "artifact_bundles",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    /** SHA-1 of the whole bundle (the assemble request's `checksum`). */
    checksum: text("checksum").notNull(),
    /** The manifest's own `debug_id`, if any. */
    bundleId: text("bundle_id"),
    release: text("release"),
    dist: text("dist"),
    fileCount: integer("file_count").notNull(),
    /** Bytes of the bundle as uploaded. */
    size: bigint("size", { mode: "number" }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("artifact_bundles_org_project_created_idx").on(t.organizationId, t.projectId, t.createdAt),
    // hasRelease (source-map-store.ts) names only the project.
    index("artifact_bundles_project_release_idx").on(t.projectId, t.release, t.dist),
    index("artifact_bundles_org_checksum_idx").on(t.organizationId, t.checksum),
  ],
);

/**
 * One file of a bundle, indexed for the symbolicator both ways: by (project, debug id, type) and by
 * (project, release, dist, url). Every lookup names the project: a debug id uploaded for another
 * project never reads this row.
 */
export const artifactBundleFiles = pgTable(
  "artifact_bundle_files",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    bundleId: uuid("bundle_id")
      .notNull()
      .references(() => artifactBundles.id, { onDelete: "cascade" }),
    organizationId: text("organization_id").notNull(),
    projectId: uuid("project_id").notNull(),
    /** source | minified_source | source_map | indexed_ram_bundle */
    type: text("type").notNull(),
    /** The manifest's `url` (`~/assets/app.js`). */
    url: text("url").notNull(),
    /** Lower-case UUID from the `debug-id` header. */
    debugId: text("debug_id"),
    /** The `sourcemap` / `x-sourcemap` header of a minified file. */
    sourceMap: text("source_map"),
    release: text("release"),
    dist: text("dist"),
    sha1: text("sha1").notNull(),
    size: integer("size").notNull(),
  },
  (t) => [
    // The symbolicator names only the project (source-map-store.ts), whose id is unique on its own.
    index("artifact_files_debug_id_idx")
      .on(t.projectId, t.debugId, t.type)
      .where(sql`${t.debugId} is not null`),
    index("artifact_files_release_url_idx")
      .on(t.projectId, t.release, t.dist, t.url)
      .where(sql`${t.release} is not null`),
    index("artifact_files_bundle_idx").on(t.bundleId),
    index("artifact_files_org_sha1_idx").on(t.organizationId, t.sha1),
  ],
);

/**
 * Events that came before their source maps: one row per (project, debug id, fingerprint) whose
 * frames said `bundle_not_found`, with one of its events. When a bundle holding the debug id is
 * assembled, that event is symbolicated again and its mapped fingerprint linked to the issue of the
 * minified one, so later events — mapped on arrival — join that issue (sourcemaps/source-map-waits.ts).
 */
export const sourceMapWaits = pgTable(
  "source_map_waits",
  {
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    debugId: text("debug_id").notNull(),
    /** The v2 fingerprint the event was grouped by, minified. */
    fingerprint: text("fingerprint").notNull(),
    eventId: text("event_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.debugId, t.fingerprint] })],
);

import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { organization } from "./auth";

export const projects = pgTable(
  "projects",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    // The DSN path segment: Sentry SDKs and proxies assume a positive integer there.
    number: integer("number").notNull().unique().generatedAlwaysAsIdentity(),
    name: text("name").notNull(),
    /** The URL name, unique in the organization (shared/project-slug.ts): what sentry-cli's SENTRY_PROJECT names. */
    slug: text("slug").notNull(),
    platform: text("platform").notNull(),
    description: text("description"),
    /** Set when a deletion of the project is under way (deletions table): it is gone for every reader and ingest at once. */
    deletionId: uuid("deletion_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("projects_organization_created_idx").on(t.organizationId, t.createdAt),
    uniqueIndex("projects_organization_slug_idx").on(t.organizationId, t.slug),
  ],
);

/** Client keys: the Sentry DSN public key, also accepted as the native SDK's x-api-key. */
export const projectKeys = pgTable(
  "project_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    publicKey: text("public_key").notNull().unique(),
    label: text("label").notNull().default("Default"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    /**
     * The key whose DSN the project shows as its DSN (setup snippets, "the project's DSN"). Chosen
     * by the user; without one the oldest active key is shown, so adding a key never changes it.
     */
    isPrimary: boolean("is_primary").notNull().default(false),
  },
  (t) => [
    index("project_keys_org_project_idx").on(t.organizationId, t.projectId),
    uniqueIndex("project_keys_one_primary_idx")
      .on(t.projectId)
      .where(sql`${t.isPrimary}`),
  ],
);

import { sql } from "drizzle-orm";
import { index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { organization, user } from "./auth";

// Tables of two better-auth features the spec names as entities (§3): organization roles (the
// organization plugin's dynamic access control) and device authorization (the device flow plugin).
// Property names are the field names better-auth asks for; SQL names are snake_case.

/** A custom role of one organization: `permission` is JSON, a map of resource to actions (spec §6). */
export const organizationRole = pgTable(
  "organization_roles",
  {
    id: text("id")
      .primaryKey()
      .default(sql`gen_random_uuid()::text`),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    role: text("role").notNull(),
    permission: text("permission").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }),
  },
  // One role name per organization, even when two admins create it at the same instant.
  (t) => [uniqueIndex("organization_roles_organization_role_idx").on(t.organizationId, t.role)],
);

/** One device authorization (RFC 8628): a command-line tool polls with deviceCode, a person approves userCode. */
export const deviceCode = pgTable(
  "device_codes",
  {
    id: text("id")
      .primaryKey()
      .default(sql`gen_random_uuid()::text`),
    deviceCode: text("device_code").notNull().unique(),
    userCode: text("user_code").notNull().unique(),
    userId: text("user_id").references(() => user.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    status: text("status").notNull(),
    lastPolledAt: timestamp("last_polled_at", { withTimezone: true }),
    pollingInterval: integer("polling_interval"),
    clientId: text("client_id"),
    scope: text("scope"),
  },
  (t) => [index("device_codes_user_id_idx").on(t.userId)],
);

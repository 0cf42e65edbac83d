import { foreignKey, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { member, organization, user } from "./auth";

/**
 * Organization API tokens (Bearer) for the REST API and the MCP endpoint. Only a SHA-256 of the
 * secret is kept: the secret is shown once and cannot be recovered. A revoked token is deleted.
 */
export const apiTokens = pgTable(
  "api_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** Comma-separated scopes (shared/api-token.inputs.ts). */
    scopes: text("scopes").notNull(),
    /** Hex SHA-256 of the whole secret; the lookup key. */
    secretHash: text("secret_hash").notNull().unique(),
    prefix: text("prefix").notNull(),
    /** The token acts as its creator (attribution, role); it is deleted when they leave the organization (below). */
    createdBy: text("created_by")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
  },
  (t) => [
    index("api_tokens_organization_idx").on(t.organizationId, t.createdAt),
    // A token lives only as long as its creator's membership: leaving revokes it (deletes it, as
    // revoking does), so rejoining, even with a lower role, never brings it back. A database rule
    // because a member row goes by several paths and better-auth 1.7's organizationHooks see only
    // one of them: remove-member calls afterRemoveMember, /organization/leave calls no hook, and a
    // deleted user or organization takes its member rows by cascade.
    foreignKey({
      name: "api_tokens_creator_membership_fk",
      columns: [t.organizationId, t.createdBy],
      foreignColumns: [member.organizationId, member.userId],
    }).onDelete("cascade"),
  ],
);

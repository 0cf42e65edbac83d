import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { organization, user } from "./auth";

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
    /** The token acts as its creator (attribution, role); it stops working when they leave the organization. */
    createdBy: text("created_by")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
  },
  (t) => [index("api_tokens_organization_idx").on(t.organizationId, t.createdAt)],
);

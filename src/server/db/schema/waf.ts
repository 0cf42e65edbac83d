import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { organization } from "./auth";

/**
 * An organization's AWS WAF connection. The row exists before the connection does (it holds the
 * ExternalId the connect drawer shows for a role's trust policy); `connectedAt` says whether it is
 * connected. Credentials are sealed (secrets/secret-box.ts) with additional data
 * `organization:<id>` / `aws-waf` / `<field>`, so a value copied to another row does not open.
 */
export const wafConnections = pgTable("waf_connections", {
  organizationId: text("organization_id")
    .primaryKey()
    .references(() => organization.id, { onDelete: "cascade" }),
  /** Per organization and stable across reconnects, so a role's trust policy keeps working. */
  externalId: text("external_id").notNull(),
  region: text("region"),
  /** REGIONAL | CLOUDFRONT */
  scope: text("scope"),
  accessKeyIdSealed: text("access_key_id_sealed"),
  secretAccessKeySealed: text("secret_access_key_sealed"),
  /** The key id's last 4 characters, for the masked display (`…ABCD`) without opening anything. */
  accessKeyIdLast4: text("access_key_id_last4"),
  roleArn: text("role_arn"),
  blockListIpSetId: text("block_list_ip_set_id"),
  blockListIpSetName: text("block_list_ip_set_name"),
  blockListIpSetArn: text("block_list_ip_set_arn"),
  /** IPV4 | IPV6: an IP set holds one family. */
  blockListVersion: text("block_list_version"),
  /** connected | failing — failing when the last AWS call with these credentials was refused. */
  status: text("status"),
  lastError: text("last_error"),
  connectedAt: timestamp("connected_at", { withTimezone: true }),
  connectedByUserId: text("connected_by_user_id"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Every block and unblock through Faultline: who, which address, from which issue/exception, and what AWS ended up holding. */
export const wafBlockAudit = pgTable(
  "waf_block_audit",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    actorUserId: text("actor_user_id"),
    /** block | unblock */
    action: text("action").notNull(),
    /** The address as given, and the CIDR written to the IP set (`/32` or `/128`). */
    ip: text("ip").notNull(),
    cidr: text("cidr").notNull(),
    ipSetId: text("ip_set_id").notNull(),
    ipSetName: text("ip_set_name").notNull(),
    /** changed | unchanged — blocking a blocked address (or unblocking an absent one) changes nothing. */
    outcome: text("outcome").notNull(),
    // Plain columns, not foreign keys: the audit outlives a deleted project or issue.
    projectId: uuid("project_id"),
    issueId: uuid("issue_id"),
    exceptionId: uuid("exception_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("waf_block_audit_org_created_idx").on(t.organizationId, t.createdAt.desc()),
    index("waf_block_audit_org_cidr_idx").on(t.organizationId, t.cidr),
  ],
);

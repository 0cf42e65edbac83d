import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { member } from "../db/schema/index";
import { notFound } from "../errors";

export interface OrgScope {
  organizationId: string;
  userId: string;
  role: string;
}

/**
 * The organization a caller acts in, taken from their membership row. A non-member gets the same
 * NOT_FOUND as a missing organization, so ids of other tenants reveal nothing.
 */
export async function resolveMembership(db: Db, userId: string, organizationId: string | null | undefined): Promise<OrgScope> {
  if (!organizationId) throw notFound("Organization");
  const [row] = await db
    .select({ role: member.role })
    .from(member)
    .where(and(eq(member.organizationId, organizationId), eq(member.userId, userId)))
    .limit(1);
  if (!row) throw notFound("Organization");
  return { organizationId, userId, role: row.role };
}

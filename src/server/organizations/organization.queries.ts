import { and, asc, eq, or, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { preparedPerDb } from "../db/prepared-per-db";
import { member, organization } from "../db/schema/index";

// An organization is named by its id or its slug (both unique). Every query here is bounded by
// what the caller already holds — a membership or a token's organization — so a name reaches only
// the caller's own organizations.

const named = (ref: ReturnType<typeof sql.placeholder> | string) => or(eq(organization.id, ref), eq(organization.slug, ref));

const membershipByRef = preparedPerDb((db) =>
  db
    .select({ organizationId: member.organizationId, slug: organization.slug, role: member.role })
    .from(member)
    .innerJoin(organization, eq(organization.id, member.organizationId))
    .where(and(eq(member.userId, sql.placeholder("userId")), named(sql.placeholder("ref"))))
    // An id and another organization's slug could in theory coincide: then the id wins (below).
    .limit(2)
    .prepare("membership_by_ref"),
);

/** The user's membership of the organization `ref` names (its id, else its slug), or null. */
export async function selectMembershipByRef(db: Db, userId: string, ref: string) {
  const rows = await membershipByRef(db).execute({ userId, ref });
  return rows.find((row) => row.organizationId === ref) ?? rows[0] ?? null;
}

/** Organization `organizationId`, when `ref` is its id or its slug; null otherwise (an API token's organization checked against a URL). */
export async function selectOrganizationByRef(db: Db, organizationId: string, ref: string) {
  const [row] = await db
    .select({ id: organization.id, slug: organization.slug, name: organization.name, createdAt: organization.createdAt })
    .from(organization)
    .where(and(eq(organization.id, organizationId), named(ref)))
    .limit(1);
  return row ?? null;
}

/** Every organization the user is a member of, with their role, oldest first. */
export function selectOrganizationsOfUser(db: Db, userId: string) {
  return db
    .select({ id: organization.id, slug: organization.slug, name: organization.name, role: member.role, createdAt: organization.createdAt })
    .from(member)
    .innerJoin(organization, eq(organization.id, member.organizationId))
    .where(eq(member.userId, userId))
    .orderBy(asc(organization.createdAt), asc(organization.id));
}

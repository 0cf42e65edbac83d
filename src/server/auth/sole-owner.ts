import { APIError } from "better-auth/api";
import { and, eq, inArray, ne } from "drizzle-orm";
import type { Db } from "../db/client";
import { member, organization } from "../db/schema/index";
import { parseRoles } from "../../shared/roles";

const OWNER = "owner";
const NAMES_SHOWN = 3;
const NAME_SHOWN_LENGTH = 60;

/**
 * Organizations where the user is the only owner. Deleting that user would leave each without
 * anyone allowed to delete it, change roles or manage billing — and better-auth deletes users
 * without asking. Includes organizations the user is the only member of.
 */
export async function organizationsOwnedOnlyBy(db: Db, userId: string): Promise<{ id: string; name: string }[]> {
  const owned = (
    await db
      .select({ id: organization.id, name: organization.name, role: member.role })
      .from(member)
      .innerJoin(organization, eq(organization.id, member.organizationId))
      .where(eq(member.userId, userId))
  ).filter((row) => parseRoles(row.role).includes(OWNER));
  if (owned.length === 0) return [];
  const others = await db
    .select({ organizationId: member.organizationId, role: member.role })
    .from(member)
    .where(
      and(
        inArray(
          member.organizationId,
          owned.map((row) => row.id),
        ),
        ne(member.userId, userId),
      ),
    );
  const coOwned = new Set(others.filter((row) => parseRoles(row.role).includes(OWNER)).map((row) => row.organizationId));
  return owned.filter((row) => !coOwned.has(row.id)).map(({ id, name }) => ({ id, name }));
}

const shortName = (name: string) => (name.length > NAME_SHOWN_LENGTH ? `${name.slice(0, NAME_SHOWN_LENGTH)}…` : name);

/** "You are the only owner of Acme. Transfer ownership …" — what the delete-account card shows. */
export function soleOwnerMessage(organizations: { name: string }[]): string {
  const names = organizations.slice(0, NAMES_SHOWN).map((org) => shortName(org.name));
  const more = organizations.length - names.length;
  const list = more > 0 ? `${names.join(", ")} and ${more} more` : names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : names[0];
  const which = organizations.length > 1 ? "these organizations" : "the organization";
  return `You are the only owner of ${list}. Transfer ownership to another member or delete ${which} before deleting your account.`;
}

/**
 * Refuses to delete the sole owner of an organization (decision: refuse rather than promote an
 * admin behind everyone's back). Checked when deletion is requested and again right before the
 * delete, since ownership can change while the confirmation mail waits. Two co-owners deleting
 * themselves at the same instant can still both pass: better-auth deletes outside any transaction
 * we could lock in, and the window is a few milliseconds.
 */
export async function assertNotSoleOwner(db: Db, userId: string): Promise<void> {
  const organizations = await organizationsOwnedOnlyBy(db, userId);
  if (organizations.length > 0) throw APIError.from("BAD_REQUEST", { code: "SOLE_OWNER_OF_ORGANIZATION", message: soleOwnerMessage(organizations) });
}

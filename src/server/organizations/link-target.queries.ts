import { and, eq, isNull } from "drizzle-orm";
import type { LinkTargetKind } from "../../shared/link.inputs";
import type { Db } from "../db/client";
import { conversations, issues, member, occurrences, projects } from "../db/schema/index";

/**
 * The organization holding a row a link names, among the organizations `userId` is a member of
 * (the join on `members` is the tenancy check: anyone else's row is no row). A conversation is
 * its owner's only, as everywhere else. Each lookup is by primary key.
 */
const holders: Record<LinkTargetKind, (db: Db, userId: string, id: string) => Promise<{ organizationId: string }[]>> = {
  issue: (db, userId, id) =>
    db
      .select({ organizationId: issues.organizationId })
      .from(issues)
      .innerJoin(member, and(eq(member.organizationId, issues.organizationId), eq(member.userId, userId)))
      .where(eq(issues.id, id))
      .limit(1),
  exception: (db, userId, id) =>
    db
      .select({ organizationId: occurrences.organizationId })
      .from(occurrences)
      .innerJoin(member, and(eq(member.organizationId, occurrences.organizationId), eq(member.userId, userId)))
      .where(eq(occurrences.id, id))
      .limit(1),
  project: (db, userId, id) =>
    db
      .select({ organizationId: projects.organizationId })
      .from(projects)
      .innerJoin(member, and(eq(member.organizationId, projects.organizationId), eq(member.userId, userId)))
      .where(and(eq(projects.id, id), isNull(projects.deletionId)))
      .limit(1),
  chat: (db, userId, id) =>
    db
      .select({ organizationId: conversations.organizationId })
      .from(conversations)
      .innerJoin(member, and(eq(member.organizationId, conversations.organizationId), eq(member.userId, userId)))
      .where(and(eq(conversations.id, id), eq(conversations.ownerUserId, userId)))
      .limit(1),
};

export async function selectLinkTargetOrganization(db: Db, userId: string, kind: LinkTargetKind, id: string): Promise<string | null> {
  const [row] = await holders[kind](db, userId, id);
  return row?.organizationId ?? null;
}

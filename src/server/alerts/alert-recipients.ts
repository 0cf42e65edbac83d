import { and, eq, inArray, notExists } from "drizzle-orm";
import type { Db } from "../db/client";
import { alertEmailOptOuts, member, teamMember, team, user } from "../db/schema/index";
import type { EmailRecipients } from "./alert-rule.view";

/**
 * The addresses an email action goes to: the organization's members (all, a team's, or chosen
 * ones), always intersected with the CURRENT membership (a removed member gets nothing), minus
 * members who opted out of this project's alert emails, verified addresses only.
 */
export async function emailRecipients(db: Db, organizationId: string, projectId: string, recipients: EmailRecipients): Promise<string[]> {
  const notOptedOut = notExists(
    db
      .select({ one: alertEmailOptOuts.userId })
      .from(alertEmailOptOuts)
      .where(and(eq(alertEmailOptOuts.userId, member.userId), eq(alertEmailOptOuts.projectId, projectId))),
  );
  const base = and(eq(member.organizationId, organizationId), eq(user.emailVerified, true), notOptedOut);
  let rows: { email: string }[];
  if (recipients.to === "team" && recipients.teamId) {
    rows = await db
      .select({ email: user.email })
      .from(member)
      .innerJoin(user, eq(user.id, member.userId))
      .innerJoin(teamMember, eq(teamMember.userId, member.userId))
      .innerJoin(team, and(eq(team.id, teamMember.teamId), eq(team.organizationId, organizationId)))
      .where(and(base, eq(team.id, recipients.teamId)));
  } else if (recipients.to === "users") {
    if (!recipients.userIds?.length) return [];
    rows = await db
      .select({ email: user.email })
      .from(member)
      .innerJoin(user, eq(user.id, member.userId))
      .where(and(base, inArray(member.userId, recipients.userIds)));
  } else {
    rows = await db.select({ email: user.email }).from(member).innerJoin(user, eq(user.id, member.userId)).where(base);
  }
  return [...new Set(rows.map((row) => row.email))].sort();
}

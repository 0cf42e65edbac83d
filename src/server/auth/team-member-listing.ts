import { getSessionFromCtx } from "better-auth/api";
import { and, eq } from "drizzle-orm";
import { parseRoles } from "../../shared/roles";
import type { Db } from "../db/client";
import { member, team, teamMember } from "../db/schema/index";
import { permissionsOfRoleIn } from "../organizations/permissions";
import type { AuthHookContext } from "./hook-context";

/**
 * better-auth 1.7 shows a team's members to that team's own members only, while owners and admins
 * manage every team and alert rules send "To: a team". Whoever may change teams (`team:update`)
 * gets the list of any team of their organization here, in better-auth's own answer shape; everyone
 * else (and every error) is left to better-auth's endpoint.
 */
export async function listTeamMembersForTeamManagers(ctx: AuthHookContext, db: Db) {
  const teamId = (ctx.query as { teamId?: unknown } | undefined)?.teamId;
  if (typeof teamId !== "string" || !teamId) return;
  const session = await getSessionFromCtx(ctx);
  if (!session) return;
  const [row] = await db
    .select({ organizationId: team.organizationId, role: member.role })
    .from(team)
    .innerJoin(member, and(eq(member.organizationId, team.organizationId), eq(member.userId, session.user.id)))
    .where(eq(team.id, teamId));
  if (!row || parseRoles(row.role).length === 0) return;
  if (!(await permissionsOfRoleIn(db, row.organizationId, row.role)).has("team:update")) return;
  const members = await db
    .select({ id: teamMember.id, teamId: teamMember.teamId, userId: teamMember.userId, createdAt: teamMember.createdAt })
    .from(teamMember)
    .where(eq(teamMember.teamId, teamId));
  return ctx.json(members);
}

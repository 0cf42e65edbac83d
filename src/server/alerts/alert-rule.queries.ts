import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client";
import { alertActions, alertRules } from "../db/schema/index";

export type AlertRuleRow = typeof alertRules.$inferSelect;
export type AlertActionRow = typeof alertActions.$inferSelect;
export type RuleWithActions = AlertRuleRow & { actions: AlertActionRow[] };

/** A project's rules with their actions (two statements, whatever the number of rules). */
export async function selectRules(db: Db, organizationId: string, projectId: string, ruleId?: string): Promise<RuleWithActions[]> {
  const rules = await db
    .select()
    .from(alertRules)
    .where(and(eq(alertRules.organizationId, organizationId), eq(alertRules.projectId, projectId), ruleId ? eq(alertRules.id, ruleId) : undefined))
    .orderBy(asc(alertRules.createdAt), asc(alertRules.id));
  if (rules.length === 0) return [];
  const actions = await db
    .select()
    .from(alertActions)
    .where(
      and(
        eq(alertActions.organizationId, organizationId),
        eq(alertActions.projectId, projectId),
        inArray(
          alertActions.ruleId,
          rules.map((rule) => rule.id),
        ),
      ),
    )
    .orderBy(asc(alertActions.position));
  return rules.map((rule) => ({ ...rule, actions: actions.filter((action) => action.ruleId === rule.id) }));
}

import { randomUUID } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import type {
  AlertActionInput,
  AlertRuleBody,
  AlertRuleScope,
  CreateAlertRuleInput,
  SnoozeAlertRuleInput,
  UpdateAlertRuleInput,
} from "../../shared/alert.inputs";
import type { AlertRuleView } from "../../shared/alert.views";
import type { Db } from "../db/client";
import { alertActions, alertRules, member, team } from "../db/schema/index";
import { AppError, notFound } from "../errors";
import type { ServiceContext } from "../context";
import { requireProject } from "../projects/project-scope";
import { newSigningSecret, sealActionUrl, sealSigningSecret, urlHostOf } from "./alert-action-secrets";
import { selectRules, type AlertActionRow } from "./alert-rule.queries";
import { ruleView } from "./alert-rule.view";
import { requirePermission } from "../organizations/permissions";

/** A validation failure found after parsing, in the same shape as zod's (errors.ts validationError). */
const invalid = (path: string, message: string) => new AppError("VALIDATION_ERROR", `${path}: ${message}`, { issues: [{ path, message }] });

export async function listRules(ctx: ServiceContext, projectId: string): Promise<AlertRuleView[]> {
  await requireProject(ctx, projectId);
  return (await selectRules(ctx.db, ctx.org.organizationId, projectId)).map((rule) => ruleView(rule));
}

export async function getRule(ctx: ServiceContext, scope: AlertRuleScope): Promise<AlertRuleView> {
  await requireProject(ctx, scope.projectId);
  return ruleView(await loadRule(ctx, scope));
}

async function loadRule(ctx: ServiceContext, scope: AlertRuleScope) {
  const [rule] = await selectRules(ctx.db, ctx.org.organizationId, scope.projectId, scope.ruleId);
  if (!rule) throw notFound("Alert rule");
  return rule;
}

/** Email recipients must be the organization's own team or members: ids of another tenant are refused as unknown. */
async function checkRecipients(db: Db, organizationId: string, actions: AlertActionInput[]) {
  for (const action of actions) {
    if (action.type !== "email") continue;
    if (action.to === "team" && action.teamId) {
      const [row] = await db
        .select({ id: team.id })
        .from(team)
        .where(and(eq(team.organizationId, organizationId), eq(team.id, action.teamId)));
      if (!row) throw invalid("actions", "Unknown team");
    }
    if (action.to === "users" && action.userIds?.length) {
      const rows = await db
        .select({ userId: member.userId })
        .from(member)
        .where(and(eq(member.organizationId, organizationId), inArray(member.userId, action.userIds)));
      if (rows.length !== new Set(action.userIds).size) throw invalid("actions", "Not a member of this organization");
    }
  }
}

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * Writes a rule's actions: an action sent back with its id keeps its row (and its sealed URL and
 * signing secret unless a new URL is given); the rule's other actions are deleted; new ones get a
 * fresh signing secret, returned once in `secrets`.
 */
async function writeActions(tx: Tx, ctx: ServiceContext, projectId: string, ruleId: string, inputs: AlertActionInput[], existing: AlertActionRow[]) {
  const secrets = new Map<string, string>();
  const kept = new Set<string>();
  for (const [position, input] of inputs.entries()) {
    const previous = input.id ? existing.find((action) => action.id === input.id && action.type === input.type) : undefined;
    if (input.id && !previous) throw invalid(`actions.${position}.id`, "Unknown action");
    const id = previous?.id ?? randomUUID();
    const columns: Partial<typeof alertActions.$inferInsert> = { position, type: input.type };
    if (input.type === "email") {
      columns.recipients = JSON.stringify({
        to: input.to,
        ...(input.to === "team" ? { teamId: input.teamId } : {}),
        ...(input.to === "users" ? { userIds: input.userIds } : {}),
      });
    } else if (input.url) {
      columns.urlSealed = sealActionUrl(ctx.secretBox, projectId, id, input.url);
      columns.urlHost = urlHostOf(input.url);
    }
    if (input.type === "webhook" && !previous) {
      const secret = newSigningSecret();
      columns.signingSecretSealed = sealSigningSecret(ctx.secretBox, projectId, id, secret);
      secrets.set(id, secret);
    }
    if (previous) {
      kept.add(id);
      await tx
        .update(alertActions)
        .set(columns)
        .where(and(eq(alertActions.id, id), eq(alertActions.ruleId, ruleId)));
    } else {
      await tx.insert(alertActions).values({ ...columns, id, type: input.type, organizationId: ctx.org.organizationId, projectId, ruleId });
    }
  }
  const dropped = existing.filter((action) => !kept.has(action.id)).map((action) => action.id);
  if (dropped.length > 0) await tx.delete(alertActions).where(and(eq(alertActions.ruleId, ruleId), inArray(alertActions.id, dropped)));
  return secrets;
}

const ruleColumns = (body: AlertRuleBody) => ({
  name: body.name,
  enabled: body.enabled,
  triggerType: body.trigger.type,
  trigger: JSON.stringify(body.trigger),
  filters: JSON.stringify(body.filters),
  intervalMinutes: body.intervalMinutes,
  maxPerHour: body.maxPerHour,
});

export async function createRule(ctx: ServiceContext, input: CreateAlertRuleInput): Promise<AlertRuleView> {
  await requireProject(ctx, input.projectId);
  await requirePermission(ctx, "alert:manage");
  if (input.actions.some((action) => action.id)) throw invalid("actions", "A new rule's actions have no ids");
  await checkRecipients(ctx.db, ctx.org.organizationId, input.actions);
  const { ruleId, secrets } = await ctx.db.transaction(async (tx) => {
    const [rule] = await tx
      .insert(alertRules)
      .values({ ...ruleColumns(input), organizationId: ctx.org.organizationId, projectId: input.projectId })
      .returning({ id: alertRules.id });
    return { ruleId: rule.id, secrets: await writeActions(tx, ctx, input.projectId, rule.id, input.actions, []) };
  });
  return ruleView(await loadRule(ctx, { projectId: input.projectId, ruleId }), secrets);
}

export async function updateRule(ctx: ServiceContext, input: UpdateAlertRuleInput): Promise<AlertRuleView> {
  await requireProject(ctx, input.projectId);
  const rule = await loadRule(ctx, input);
  await requirePermission(ctx, "alert:manage");
  await checkRecipients(ctx.db, ctx.org.organizationId, input.actions);
  const secrets = await ctx.db.transaction(async (tx) => {
    await tx
      .update(alertRules)
      .set({ ...ruleColumns(input), updatedAt: new Date() })
      .where(and(eq(alertRules.organizationId, ctx.org.organizationId), eq(alertRules.id, rule.id)));
    return writeActions(tx, ctx, input.projectId, rule.id, input.actions, rule.actions);
  });
  return ruleView(await loadRule(ctx, input), secrets);
}

export async function deleteRule(ctx: ServiceContext, scope: AlertRuleScope): Promise<{ id: string }> {
  await requireProject(ctx, scope.projectId);
  const rule = await loadRule(ctx, scope);
  await requirePermission(ctx, "alert:manage");
  await ctx.db.delete(alertRules).where(and(eq(alertRules.organizationId, ctx.org.organizationId), eq(alertRules.id, rule.id)));
  return { id: rule.id };
}

/** Snoozing quiets a project's alerts for a while and changes no rule: `alert:snooze`, which members hold. */
export async function snoozeRule(ctx: ServiceContext, input: SnoozeAlertRuleInput): Promise<AlertRuleView> {
  await requireProject(ctx, input.projectId);
  await requirePermission(ctx, "alert:snooze");
  const rule = await loadRule(ctx, input);
  await ctx.db
    .update(alertRules)
    .set({ snoozedUntil: input.minutes === 0 ? null : sql`now() + ${`${input.minutes} minutes`}::interval` })
    .where(and(eq(alertRules.organizationId, ctx.org.organizationId), eq(alertRules.id, rule.id)));
  return ruleView(await loadRule(ctx, input));
}

/** The rule every new project starts with: a new issue or a regression emails every member. */
export async function insertDefaultAlertRule(tx: Pick<Db, "insert">, organizationId: string, projectId: string) {
  const [rule] = await tx
    .insert(alertRules)
    .values({
      organizationId,
      projectId,
      name: "New issue or regression",
      triggerType: "new_issue",
      trigger: JSON.stringify({ type: "new_issue", includeRegressions: true }),
      filters: "{}",
    })
    .returning({ id: alertRules.id });
  await tx.insert(alertActions).values({ organizationId, projectId, ruleId: rule.id, type: "email", recipients: JSON.stringify({ to: "members" }) });
}

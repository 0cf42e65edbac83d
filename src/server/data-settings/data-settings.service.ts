import type {
  ProjectDataSettingsInput,
  ScrubRule,
  UpdateOrganizationDataSettingsInput,
  UpdateProjectDataSettingsInput,
} from "../../shared/data-settings.inputs";
import type { DataSettingsLayer, OrganizationDataSettings, ProjectDataSettings } from "../../shared/data-settings.views";
import type { ServiceContext } from "../context";
import { organizationPlan, plansApply } from "../billing/organization-plan";
import { AppError } from "../errors";
import { compileLinear } from "../ingest/normalize/linear-regex";
import { requirePermission } from "../organizations/permissions";
import { requireProject } from "../projects/project-scope";
import { selectDataSettingsLayers, sumScrubbedOn, upsertDataSettingsLayer } from "./data-settings.queries";
import { resolveDataSettings } from "./data-settings.resolve";
import { retentionPolicy, type RetentionPolicy } from "./retention-policy";

// Reading needs membership only; changing needs the grant organization settings use.
type ReadContext = Pick<ServiceContext, "db" | "env" | "org" | "checkedProject">;
type WriteContext = ReadContext & Pick<ServiceContext, "dataSettingsChanges" | "logger">;

const today = () => new Date().toISOString().slice(0, 10);

/** The zod input checked syntax and sizes; a pattern must also run in linear time (linear-regex.ts). */
function checkPatterns(rules: readonly ScrubRule[] | null | undefined) {
  for (const [index, rule] of (rules ?? []).entries()) {
    if (rule.type !== "pattern") continue;
    const compiled = compileLinear(rule.pattern ?? "");
    if (!compiled.ok) throw new AppError("BAD_REQUEST", `rules[${index}].pattern: ${compiled.message}`, { field: `rules.${index}.pattern` });
  }
}

/** The plan is read only where plans apply (the hosted deployment). */
async function policyOf(ctx: ReadContext): Promise<RetentionPolicy> {
  return retentionPolicy(ctx.env, plansApply(ctx.env) ? await organizationPlan(ctx.db, ctx.org.organizationId) : "free");
}

const toLayer = (input: UpdateOrganizationDataSettingsInput): DataSettingsLayer => ({
  retentionDays: input.retentionDays ?? null,
  scrubDefaults: input.scrubDefaults ?? null,
  storeIpAddresses: input.storeIpAddresses ?? null,
  sensitiveFields: input.sensitiveFields ?? null,
  safeFields: input.safeFields ?? null,
  rules: input.rules ?? null,
});

export async function getOrganizationDataSettings(ctx: ReadContext): Promise<OrganizationDataSettings> {
  const { organizationId } = ctx.org;
  const [layers, scrubbedToday, policy] = await Promise.all([
    selectDataSettingsLayers(ctx.db, organizationId, null),
    sumScrubbedOn(ctx.db, organizationId, today(), null),
    policyOf(ctx),
  ]);
  const effective = resolveDataSettings(layers.organization, null, policy);
  return { settings: layers.organization, effective: effective.values, retention: { ...policy, capped: effective.capped }, scrubbedToday };
}

/**
 * Replaces the organization's layer; absent or null fields fall back to the product default.
 * retentionDays above the plan's cap is stored as asked and answered capped (`retention.capped`).
 */
export async function updateOrganizationDataSettings(ctx: WriteContext, input: UpdateOrganizationDataSettingsInput): Promise<OrganizationDataSettings> {
  await requirePermission(ctx, "organization:update");
  checkPatterns(input.rules);
  await upsertDataSettingsLayer(ctx.db, ctx.org.organizationId, null, toLayer(input));
  ctx.dataSettingsChanges.changed(ctx.org.organizationId, null);
  return getOrganizationDataSettings(ctx);
}

export async function getProjectDataSettings(ctx: ReadContext, input: ProjectDataSettingsInput): Promise<ProjectDataSettings> {
  await requireProject(ctx, input.projectId);
  const { organizationId } = ctx.org;
  const [layers, scrubbedToday, policy] = await Promise.all([
    selectDataSettingsLayers(ctx.db, organizationId, input.projectId),
    sumScrubbedOn(ctx.db, organizationId, today(), input.projectId),
    policyOf(ctx),
  ]);
  const effective = resolveDataSettings(layers.organization, layers.project, policy);
  return {
    projectId: input.projectId,
    overrides: layers.project!,
    organization: resolveDataSettings(layers.organization, null, policy).values,
    effective: effective.values,
    retention: { ...policy, capped: effective.capped },
    scrubbedToday,
  };
}

/** Replaces the project's overrides; absent or null fields inherit the organization's. */
export async function updateProjectDataSettings(ctx: WriteContext, input: UpdateProjectDataSettingsInput): Promise<ProjectDataSettings> {
  await requireProject(ctx, input.projectId);
  await requirePermission(ctx, "organization:update");
  checkPatterns(input.rules);
  await upsertDataSettingsLayer(ctx.db, ctx.org.organizationId, input.projectId, toLayer(input));
  ctx.dataSettingsChanges.changed(ctx.org.organizationId, input.projectId);
  return getProjectDataSettings(ctx, { projectId: input.projectId });
}

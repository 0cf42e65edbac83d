import type {
  ProjectDataSettingsInput,
  ScrubRule,
  UpdateOrganizationDataSettingsInput,
  UpdateProjectDataSettingsInput,
} from "../../shared/data-settings.inputs";
import type { DataSettingsLayer, OrganizationDataSettings, ProjectDataSettings } from "../../shared/data-settings.views";
import type { ServiceContext } from "../context";
import { AppError } from "../errors";
import { compileLinear } from "../ingest/normalize/linear-regex";
import { requirePermission } from "../organizations/permissions";
import { requireProject } from "../projects/project-scope";
import { selectDataSettingsLayers, sumScrubbedOn, upsertDataSettingsLayer } from "./data-settings.queries";
import { resolveDataSettings } from "./data-settings.resolve";

// Reading needs membership only; changing needs the grant organization settings use.
type ReadContext = Pick<ServiceContext, "db" | "org" | "checkedProject">;
type WriteContext = Pick<ServiceContext, "db" | "org" | "checkedProject" | "dataSettingsChanges" | "logger">;

const today = () => new Date().toISOString().slice(0, 10);

/** The zod input checked syntax and sizes; a pattern must also run in linear time (linear-regex.ts). */
function checkPatterns(rules: readonly ScrubRule[] | null | undefined) {
  for (const [index, rule] of (rules ?? []).entries()) {
    if (rule.type !== "pattern") continue;
    const compiled = compileLinear(rule.pattern ?? "");
    if (!compiled.ok) throw new AppError("BAD_REQUEST", `rules[${index}].pattern: ${compiled.message}`, { field: `rules.${index}.pattern` });
  }
}

const toLayer = (input: UpdateOrganizationDataSettingsInput): DataSettingsLayer => ({
  scrubDefaults: input.scrubDefaults ?? null,
  storeIpAddresses: input.storeIpAddresses ?? null,
  sensitiveFields: input.sensitiveFields ?? null,
  safeFields: input.safeFields ?? null,
  rules: input.rules ?? null,
});

export async function getOrganizationDataSettings(ctx: ReadContext): Promise<OrganizationDataSettings> {
  const { organizationId } = ctx.org;
  const [layers, scrubbedToday] = await Promise.all([
    selectDataSettingsLayers(ctx.db, organizationId, null),
    sumScrubbedOn(ctx.db, organizationId, today(), null),
  ]);
  return { settings: layers.organization, effective: resolveDataSettings(layers.organization, null), scrubbedToday };
}

/** Replaces the organization's layer; absent or null fields fall back to the product default. */
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
  const [layers, scrubbedToday] = await Promise.all([
    selectDataSettingsLayers(ctx.db, organizationId, input.projectId),
    sumScrubbedOn(ctx.db, organizationId, today(), input.projectId),
  ]);
  return {
    projectId: input.projectId,
    overrides: layers.project!,
    organization: resolveDataSettings(layers.organization, null),
    effective: resolveDataSettings(layers.organization, layers.project),
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

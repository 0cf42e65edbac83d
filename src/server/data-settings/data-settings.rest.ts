import { ProjectDataSettingsInput, UpdateOrganizationDataSettingsInput, UpdateProjectDataSettingsInput } from "../../shared/data-settings.inputs";
import { OrganizationDataSettings, ProjectDataSettings } from "../../shared/data-settings.views";
import { PROJECT_PATH, type RestRoute } from "../rest/rest-route";
import * as service from "./data-settings.service";

const tag = "Data settings";
const FIELDS =
  "`retentionDays` (1..3650; on the hosted deployment stored as asked but applied at most the plan's days, `retention.capped` then true), `scrubDefaults`, `storeIpAddresses`, `sensitiveFields`, `safeFields`, `rules` ({ type: creditcard|email|ip|iban|uuid|password|pattern, pattern?, method: mask|remove|hash|replace, replacement? })";

/** REST twins of dataSettings.* (tRPC); path ids win over the body. */
export const dataSettingsRestRoutes: RestRoute[] = [
  {
    method: "get",
    path: "/organizations/:orgId/data-settings",
    summary:
      "Get the organization's data settings (retention and server-side scrubbing): what it set (null: product default), what applies, the retention's default and plan cap, and values scrubbed today",
    tag,
    output: OrganizationDataSettings,
    response: "The organization's data settings",
    access: "organization",
    tokenScope: "project:read",
    handler: (ctx) => service.getOrganizationDataSettings(ctx),
  },
  {
    method: "put",
    path: "/organizations/:orgId/data-settings",
    summary: `Replace the organization's data settings: ${FIELDS}; an absent or null field means the product default. Patterns must run in linear time`,
    tag,
    input: UpdateOrganizationDataSettingsInput,
    output: OrganizationDataSettings,
    response: "The organization's data settings as saved",
    access: "organization",
    tokenScope: "project:write",
    permission: "organization:update",
    handler: (ctx, req) => service.updateOrganizationDataSettings(ctx, UpdateOrganizationDataSettingsInput.parse(req.body ?? {})),
  },
  {
    method: "get",
    path: `${PROJECT_PATH}/data-settings`,
    summary:
      "Get the project's data settings: its `overrides` (null: as the organization says), the `organization` values it inherits, the `effective` values (what ingest and retention apply), the retention's default and plan cap, and values scrubbed today",
    tag,
    input: ProjectDataSettingsInput,
    output: ProjectDataSettings,
    response: "The project's data settings",
    access: "organization",
    tokenScope: "project:read",
    handler: (ctx, req) => service.getProjectDataSettings(ctx, ProjectDataSettingsInput.parse(req.params)),
  },
  {
    method: "put",
    path: `${PROJECT_PATH}/data-settings`,
    summary: `Replace the project's overrides: ${FIELDS}; an absent or null field inherits the organization's. Patterns must run in linear time`,
    tag,
    input: UpdateProjectDataSettingsInput,
    output: ProjectDataSettings,
    response: "The project's data settings as saved",
    access: "organization",
    tokenScope: "project:write",
    permission: "organization:update",
    handler: (ctx, req) =>
      service.updateProjectDataSettings(ctx, UpdateProjectDataSettingsInput.parse({ ...(req.body ?? {}), projectId: req.params.projectId })),
  },
];

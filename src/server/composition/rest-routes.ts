import { alertRestRoutes } from "../alerts/alert.rest";
import { apiTokenRestRoutes } from "../api-tokens/api-token.rest";
import { billingRestRoutes } from "../billing/billing.rest";
import { chatRestRoutes } from "../chat/chat.rest";
import { deletionRestRoutes } from "../deletions/deletion.rest";
import { eventRestRoutes } from "../events/event.rest";
import { exceptionRestRoutes } from "../exceptions/exception.rest";
import { wafRestRoutes } from "../integrations/waf/waf.rest";
import { issueGroupingRestRoutes } from "../issues/issue-grouping.rest";
import { issueRestRoutes } from "../issues/issue.rest";
import { organizationRestRoutes } from "../organizations/organization.rest";
import { projectRestRoutes } from "../projects/project.rest";
import { releaseRestRoutes } from "../releases/release.rest";
import { dataSettingsRestRoutes } from "../data-settings/data-settings.rest";
import { sourceMapRestRoutes } from "../sourcemaps/source-map.rest";
import { statsRestRoutes } from "../stats/stats.rest";
import { exportRestRoutes } from "../exports/export.rest";
import { storageRestRoutes } from "../storage/storage.rest";
import { buildOpenApiDocument } from "../rest/openapi";
import { OpenApiDocumentView } from "../rest/openapi-views";
import type { RestRoute } from "../rest/rest-route";

let document: ReturnType<typeof buildOpenApiDocument> | undefined;
/** The OpenAPI document of every route below, built once. */
export const openApiDocument = () => (document ??= buildOpenApiDocument(REST_ROUTES));

const openApiRoute: RestRoute = {
  method: "get",
  path: "/openapi.json",
  summary: "This document",
  tag: "Meta",
  output: OpenApiDocumentView,
  response: "The OpenAPI 3.1 document",
  access: "public",
  handler: () => openApiDocument(),
};

/**
 * Every route of /api/v1, each declared once in its domain's `*.rest.ts`. The v1 router registers
 * them (in match order, rest/route-order.ts), the OpenAPI document lists them in this order, and
 * each carries its own API-token scope. A domain's new route joins by being in its list.
 */
export const REST_ROUTES: readonly RestRoute[] = [
  openApiRoute,
  ...organizationRestRoutes,
  ...projectRestRoutes,
  ...issueRestRoutes,
  ...issueGroupingRestRoutes,
  ...exceptionRestRoutes,
  ...statsRestRoutes,
  ...eventRestRoutes,
  ...apiTokenRestRoutes,
  ...billingRestRoutes,
  ...wafRestRoutes,
  ...alertRestRoutes,
  ...chatRestRoutes,
  ...sourceMapRestRoutes,
  ...releaseRestRoutes,
  // Issue 35: exports and storage.
  ...exportRestRoutes,
  ...storageRestRoutes,
  ...dataSettingsRestRoutes,
  ...deletionRestRoutes,
];

/** The API-token scope each route needs, by `routeKey`; routes absent are closed to tokens. */
export const tokenScopes = (): Record<string, string> =>
  Object.fromEntries(REST_ROUTES.flatMap((route) => ("tokenScope" in route && route.tokenScope ? [[`${route.method} ${route.path}`, route.tokenScope]] : [])));

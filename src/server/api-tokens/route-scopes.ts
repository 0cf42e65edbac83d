import type { ApiTokenScope } from "../../shared/api-token.inputs";

const PROJECTS = "/organizations/:orgId/projects";
const PROJECT = `${PROJECTS}/:projectId`;

/**
 * The /api/v1 routes an organization API token may call, and the scope each needs (keys as
 * `routeKey` writes them). A route missing here is for signed-in people only — token management,
 * billing, integrations, the AI conversations — so a new route is closed to tokens until someone
 * decides its scope here. route-scopes.test.ts fails on an entry naming no registered route.
 */
export const TOKEN_ROUTE_SCOPES: Readonly<Record<string, ApiTokenScope>> = {
  [`get ${PROJECTS}`]: "project:read",
  [`post ${PROJECTS}`]: "project:write",
  [`get ${PROJECT}`]: "project:read",
  [`get ${PROJECT}/issues`]: "event:read",
  [`post ${PROJECT}/issues/bulk-status`]: "event:write",
  [`get ${PROJECT}/issues/:issueId`]: "event:read",
  [`put ${PROJECT}/issues/:issueId/status`]: "event:write",
  [`put ${PROJECT}/issues/:issueId/severity`]: "event:write",
  [`post ${PROJECT}/issues/merge`]: "event:write",
  [`post ${PROJECT}/issues/:issueId/unmerge`]: "event:write",
  [`get ${PROJECT}/issues/:issueId/fingerprints`]: "event:read",
  [`get ${PROJECT}/issues/:issueId/similar`]: "event:read",
  [`get ${PROJECT}/exceptions`]: "event:read",
  [`get ${PROJECT}/exceptions/statistics/daily`]: "event:read",
  [`get ${PROJECT}/exceptions/:exceptionId`]: "event:read",
  [`get ${PROJECT}/events`]: "event:read",
};

export function tokenScopeForRoute(method: string, routePath: string): ApiTokenScope | null {
  return TOKEN_ROUTE_SCOPES[`${method.toLowerCase()} ${routePath}`] ?? null;
}

import type { Request, Response } from "express";
import { createRequestContext, type AppServices, type RequestContext } from "../context";
import { activeOrganizationIdOf, resolveOrgScope, type OrgScope } from "../organizations/org-scope";

export type RestHandler<T> = (ctx: RequestContext & { org: OrgScope }, req: Request) => Promise<T>;

function scopedRoute<T>(
  services: AppServices,
  organizationIdOf: (ctx: RequestContext, req: Request) => string | null,
  handler: RestHandler<T>,
  successStatus: number,
) {
  return async (req: Request, res: Response) => {
    const ctx = await createRequestContext(services, req);
    const org = await resolveOrgScope(ctx, organizationIdOf(ctx, req));
    const result = await handler({ ...ctx, org }, req);
    res.status(successStatus).json(result);
  };
}

/**
 * Wraps an `/api/v1/organizations/:orgId/...` handler: session required, membership of :orgId
 * checked from the database (a stranger's org id answers 404), errors go to the REST mapper.
 */
export function orgRoute<T>(services: AppServices, handler: RestHandler<T>, successStatus = 200) {
  return scopedRoute(services, (_ctx, req) => String(req.params.orgId), handler, successStatus);
}

/**
 * Wraps a session-scoped handler whose path names no organization (the spec's
 * `/api/v1/ai/agents/conversations`): it acts in the session's active organization, with the
 * same membership check and the same answers as `orgProcedure` (401 signed out, 404 without an
 * active organization or once the caller is no longer a member).
 */
export function activeOrgRoute<T>(services: AppServices, handler: RestHandler<T>, successStatus = 200) {
  return scopedRoute(services, (ctx) => activeOrganizationIdOf(ctx.session), handler, successStatus);
}

import type { Request, RequestHandler, Response } from "express";
import type { ApiTokenScope } from "../../shared/api-token.inputs";
import { assertTokenScope, authenticateApiToken, bearerTokenOf, type TokenScope } from "../api-tokens/api-token-auth";
import { createRequestContext, type AppServices, type RequestContext } from "../context";
import { AppError, notFound } from "../errors";
import { activeOrganizationIdOf, resolveOrgScope } from "../organizations/org-scope";
import type { RestHandler, RestRoute } from "../rest/rest-route";

/**
 * A Bearer request: the token's organization is the only one it reaches (another organization's
 * id answers the same 404 as for a stranger's session), and only on routes that name a scope for
 * tokens (`tokenScope` in the route's definition).
 */
async function tokenScope(services: AppServices, required: ApiTokenScope | undefined, secret: string, organizationId: string | null): Promise<TokenScope> {
  const token = await authenticateApiToken(services, secret);
  if (!required) throw new AppError("FORBIDDEN", "API tokens cannot call this route; sign in instead");
  if (organizationId !== null && organizationId !== token.organizationId) throw notFound("Organization");
  assertTokenScope(token, required);
  return token;
}

function scopedRoute<T>(
  services: AppServices,
  organizationIdOf: (ctx: RequestContext, req: Request) => string | null,
  handler: RestHandler<T>,
  successStatus: number,
  required?: ApiTokenScope,
) {
  return async (req: Request, res: Response) => {
    const secret = bearerTokenOf(req.headers.authorization);
    if (secret) {
      // No session is read for a token request: a browser's cookie must not widen what the token may do.
      const ctx: RequestContext = { ...services, requestId: String(req.id ?? ""), headers: new Headers(), session: null };
      const org = await tokenScope(services, required, secret, organizationIdOf(ctx, req));
      res.status(successStatus).json(await handler({ ...ctx, org }, req));
      return;
    }
    const ctx = await createRequestContext(services, req);
    const org = await resolveOrgScope(ctx, organizationIdOf(ctx, req));
    const result = await handler({ ...ctx, org }, req);
    res.status(successStatus).json(result);
  };
}

const pathOrganization = (_ctx: RequestContext, req: Request) => String(req.params.orgId);
const activeOrganization = (ctx: RequestContext) => activeOrganizationIdOf(ctx.session);

/**
 * Wraps an `/api/v1/organizations/:orgId/...` handler: a session (membership of :orgId checked
 * from the database, a stranger's org id answers 404) or an organization API token with the
 * route's scope; errors go to the REST mapper.
 */
export function orgRoute<T>(services: AppServices, handler: RestHandler<T>, successStatus = 200, required?: ApiTokenScope) {
  return scopedRoute(services, pathOrganization, handler, successStatus, required);
}

/**
 * Wraps a session-scoped handler whose path names no organization (the spec's
 * `/api/v1/ai/agents/conversations`): it acts in the session's active organization, with the
 * same membership check and the same answers as `orgProcedure` (401 signed out, 404 without an
 * active organization or once the caller is no longer a member). A token acts in its own organization.
 */
export function activeOrgRoute<T>(services: AppServices, handler: RestHandler<T>, successStatus = 200, required?: ApiTokenScope) {
  return scopedRoute(services, activeOrganization, handler, successStatus, required);
}

/** The Express handler of one route definition: its access rule around its handler. */
export function handlerOf(services: AppServices, route: Exclude<RestRoute, { mountedBeforeJson: true }>): RequestHandler {
  if (route.access === "public") return async (req, res) => void res.status(route.status ?? 200).json(await route.handler(req));
  if ("stream" in route) {
    // A stream has no token path: a bearer request carries no session, so it answers 401 like anyone signed out.
    return async (req, res) => {
      const ctx = await createRequestContext(services, req);
      const org = await resolveOrgScope(ctx, activeOrganizationIdOf(ctx.session));
      await route.stream({ ...ctx, org }, req, res);
    };
  }
  const wrap = route.access === "organization" ? orgRoute : activeOrgRoute;
  return wrap(services, route.handler, route.status ?? 200, route.tokenScope);
}

import type { Request, Response } from "express";
import { assertTokenScope, authenticateApiToken, bearerTokenOf, type TokenScope } from "../api-tokens/api-token-auth";
import { tokenScopeForRoute } from "../api-tokens/route-scopes";
import { createRequestContext, type AppServices, type RequestContext, type ServiceContext } from "../context";
import { AppError, notFound } from "../errors";
import { activeOrganizationIdOf, resolveOrgScope } from "../organizations/org-scope";

/** A REST handler gets the same ServiceContext as a tRPC procedure and passes it to the verb unchanged. */
export type RestHandler<T> = (ctx: ServiceContext, req: Request) => Promise<T>;

/**
 * A Bearer request: the token's organization is the only one it reaches (another organization's
 * id answers the same 404 as for a stranger's session), and only on routes that list a scope for
 * tokens (api-tokens/route-scopes.ts).
 */
async function tokenScope(services: AppServices, req: Request, secret: string, organizationId: string | null): Promise<TokenScope> {
  const token = await authenticateApiToken(services, secret);
  const required = tokenScopeForRoute(req.method, String(req.route?.path ?? ""));
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
) {
  return async (req: Request, res: Response) => {
    const secret = bearerTokenOf(req.headers.authorization);
    if (secret) {
      // No session is read for a token request: a browser's cookie must not widen what the token may do.
      const ctx: RequestContext = { ...services, requestId: String(req.id ?? ""), headers: new Headers(), session: null };
      const org = await tokenScope(services, req, secret, organizationIdOf(ctx, req));
      res.status(successStatus).json(await handler({ ...ctx, org }, req));
      return;
    }
    const ctx = await createRequestContext(services, req);
    const org = await resolveOrgScope(ctx, organizationIdOf(ctx, req));
    const result = await handler({ ...ctx, org }, req);
    res.status(successStatus).json(result);
  };
}

/**
 * Wraps an `/api/v1/organizations/:orgId/...` handler: a session (membership of :orgId checked
 * from the database, a stranger's org id answers 404) or an organization API token with the
 * route's scope; errors go to the REST mapper.
 */
export function orgRoute<T>(services: AppServices, handler: RestHandler<T>, successStatus = 200) {
  return scopedRoute(services, (_ctx, req) => String(req.params.orgId), handler, successStatus);
}

/**
 * Wraps a session-scoped handler whose path names no organization (the spec's
 * `/api/v1/ai/agents/conversations`): it acts in the session's active organization, with the
 * same membership check and the same answers as `orgProcedure` (401 signed out, 404 without an
 * active organization or once the caller is no longer a member). A token acts in its own organization.
 */
export function activeOrgRoute<T>(services: AppServices, handler: RestHandler<T>, successStatus = 200) {
  return scopedRoute(services, (ctx) => activeOrganizationIdOf(ctx.session), handler, successStatus);
}

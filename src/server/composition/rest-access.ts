import type { Request, RequestHandler, Response } from "express";
import { assertTokenScope, authenticateApiToken, bearerTokenOf, type TokenScope } from "../api-tokens/api-token-auth";
import { createRequestContext, readDbFor, type AppServices, type RequestContext, type ServiceContext } from "../context";
import { AppError, notFound } from "../errors";
import { selectOrganizationByRef } from "../organizations/organization.queries";
import { activeOrganizationIdOf, resolveOrgScope, resolveOrgScopeByRef } from "../organizations/org-scope";
import { projectIdOfRef } from "../projects/project-scope";
import type { CallerContext, CallerRoute, RestHandler, RestRoute, RouteTokenScope } from "../rest/rest-route";

/**
 * A Bearer request: the token's organization is the only one it reaches (another organization's
 * id or slug answers the same 404 as for a stranger's session), and only on routes that name a
 * scope for tokens (`tokenScope` in the route's definition).
 */
async function tokenScope(services: AppServices, required: RouteTokenScope | undefined, secret: string, organizationRef: string | null): Promise<TokenScope> {
  const token = await authenticateApiToken(services, secret);
  if (!required) throw new AppError("FORBIDDEN", "API tokens cannot call this route; sign in instead");
  if (organizationRef !== null && organizationRef !== token.organizationId) {
    if (!(await selectOrganizationByRef(services.db, token.organizationId, organizationRef))) throw notFound("Organization");
  }
  if (required !== "any") assertTokenScope(token, required);
  return token;
}

/** A token request's context: no session is read, so a browser's cookie cannot widen what the token may do. */
const tokenContext = (services: AppServices, req: Request): RequestContext => ({
  ...services,
  readDb: readDbFor(services, req),
  requestId: String(req.id ?? ""),
  headers: new Headers(),
  session: null,
});

/**
 * The one place a path's names become ids, once the organization is settled: `:orgId` (an id or
 * a slug) is the scope's organization, `:projectId` (an id, a number or a slug) is looked up in it.
 * Handlers and the inputs they parse see ids only.
 */
async function resolvePathIds(ctx: ServiceContext, req: Request) {
  if (typeof req.params.orgId === "string") req.params.orgId = ctx.org.organizationId;
  if (typeof req.params.projectId === "string") req.params.projectId = await projectIdOfRef(ctx, req.params.projectId);
}

/** Where a route's organization comes from: the path's `:orgId`, or the session's active organization. */
type OrganizationSource = "path" | "active";

/** What a scoped route does once its context is built: answer JSON, or write a file (FileRoute). */
type Respond = (ctx: ServiceContext, req: Request, res: Response) => Promise<void>;

const asJson =
  <T>(handler: RestHandler<T>, successStatus: number): Respond =>
  async (ctx, req, res) =>
    void res.status(successStatus).json(await handler(ctx, req));

function scopedRoute(services: AppServices, source: OrganizationSource, respond: Respond, required?: RouteTokenScope) {
  return async (req: Request, res: Response) => {
    const secret = bearerTokenOf(req.headers.authorization);
    let ctx: ServiceContext;
    if (secret) {
      ctx = { ...tokenContext(services, req), org: await tokenScope(services, required, secret, source === "path" ? String(req.params.orgId) : null) };
    } else {
      const base = await createRequestContext(services, req);
      const org =
        source === "path" ? await resolveOrgScopeByRef(base, String(req.params.orgId)) : await resolveOrgScope(base, activeOrganizationIdOf(base.session));
      ctx = { ...base, org };
    }
    await resolvePathIds(ctx, req);
    await respond(ctx, req, res);
  };
}

/**
 * Wraps an `/api/v1/organizations/:orgId/...` handler: a session (membership of :orgId checked
 * from the database, a stranger's org id or slug answers 404) or an organization API token with
 * the route's scope; errors go to the REST mapper.
 */
export function orgRoute<T>(services: AppServices, handler: RestHandler<T>, successStatus = 200, required?: RouteTokenScope) {
  return scopedRoute(services, "path", asJson(handler, successStatus), required);
}

/**
 * Wraps a session-scoped handler whose path names no organization (the spec's
 * `/api/v1/ai/agents/conversations`): it acts in the session's active organization, with the
 * same membership check and the same answers as `orgProcedure` (401 signed out, 404 without an
 * active organization or once the caller is no longer a member). A token acts in its own organization.
 */
export function activeOrgRoute<T>(services: AppServices, handler: RestHandler<T>, successStatus = 200, required?: RouteTokenScope) {
  return scopedRoute(services, "active", asJson(handler, successStatus), required);
}

/** A route about the caller (`GET /organizations`): a signed-in user (401 otherwise), or a token confined to its organization. */
function callerRoute(services: AppServices, route: CallerRoute): RequestHandler {
  return async (req, res) => {
    const secret = bearerTokenOf(req.headers.authorization);
    let ctx: CallerContext;
    if (secret) {
      const token = await tokenScope(services, route.tokenScope, secret, null);
      ctx = { ...tokenContext(services, req), userId: token.userId, tokenOrg: token };
    } else {
      const base = await createRequestContext(services, req);
      if (!base.session) throw new AppError("UNAUTHORIZED", "Unauthorized");
      ctx = { ...base, userId: base.session.user.id, tokenOrg: null };
    }
    res.status(route.status ?? 200).json(await route.handler(ctx, req));
  };
}

/** The Express handler of one route definition: its access rule around its handler. */
export function handlerOf(services: AppServices, route: Exclude<RestRoute, { mountedBeforeJson: true }>): RequestHandler {
  if (route.access === "public") return async (req, res) => void res.status(route.status ?? 200).json(await route.handler(req));
  if (route.access === "caller") return callerRoute(services, route);
  if ("stream" in route) {
    // A stream has no token path: a bearer request carries no session, so it answers 401 like anyone signed out.
    return async (req, res) => {
      const base = await createRequestContext(services, req);
      const ctx: ServiceContext = { ...base, org: await resolveOrgScope(base, activeOrganizationIdOf(base.session)) };
      await resolvePathIds(ctx, req);
      await route.stream(ctx, req, res);
    };
  }
  if ("write" in route) return scopedRoute(services, "path", route.write, route.tokenScope);
  const wrap = route.access === "organization" ? orgRoute : activeOrgRoute;
  return wrap(services, route.handler, route.status ?? 200, route.tokenScope);
}

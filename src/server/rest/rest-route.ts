import type { Request, Response } from "express";
import type { z } from "zod";
import type { ApiTokenScope } from "../../shared/api-token.inputs";
import type { Permission } from "../../shared/permissions";
import type { RequestContext, ServiceContext } from "../context";

/**
 * What a route's handler gets: the same ServiceContext a tRPC procedure gets (the organization it
 * acts in, membership already checked), passed to the verb unchanged.
 */
export type RestHandler<T = unknown> = (ctx: ServiceContext, req: Request) => Promise<T>;

/** What the OpenAPI document says of a route (rest/openapi.ts reads only this). */
interface RouteDocumentation {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** Express syntax, relative to /api/v1. */
  path: string;
  summary: string;
  tag: string;
  /** Query parameters (GET) or JSON body (writes); the path's ids are taken out of it. */
  input?: z.ZodType;
  /** The success answer: a view named in rest/openapi-views.ts. */
  output: z.ZodType;
  /** What the answer holds, in a few words. */
  response: string;
  status?: number;
  /** The success answer's media type when it is not JSON (the chat's SSE stream). */
  mediaType?: string;
}

/**
 * The grant the service checks after its tenancy check (`requirePermission`), declared here so the
 * route says it; the service still enforces it (tRPC calls the same service). Absent: any member.
 */
type Grant = { permission?: Permission | Permission[] };

/**
 * A route's API-token scope: `any` opens it to every token of the organization whatever its scopes
 * (reading the organization itself, as Sentry implies `org:read` for every token).
 */
export type RouteTokenScope = ApiTokenScope | "any";

/**
 * `organization`: an `/organizations/:orgId/...` path (or one naming `:orgId` elsewhere): a session
 * whose membership of :orgId is checked, or an organization API token of that organization.
 * `activeOrganization`: a path without an organization id, acting in the session's active
 * organization (or the token's own). `tokenScope` opens the route to API tokens with that scope;
 * without it tokens are refused (403).
 */
export interface JsonRoute extends RouteDocumentation, Grant {
  access: "organization" | "activeOrganization";
  tokenScope?: RouteTokenScope;
  handler: RestHandler;
}

/**
 * Who calls a route about the caller rather than one organization (`GET /organizations`): a
 * signed-in user, or an API token acting as its creator in its own organization only (`tokenOrg`).
 */
export type CallerContext = RequestContext & { userId: string; tokenOrg: ServiceContext["org"] | null };

/** `caller`: a path without an organization that acts in none (the caller's organizations); a signed-in user or a token with `tokenScope`. */
export interface CallerRoute extends RouteDocumentation {
  access: "caller";
  tokenScope?: RouteTokenScope;
  handler: (ctx: CallerContext, req: Request) => Promise<unknown>;
}

/** A streamed answer in the session's active organization (the chat); signed-in people only, never tokens. */
export interface StreamRoute extends RouteDocumentation, Grant {
  access: "activeOrganization";
  mediaType: string;
  stream: (ctx: ServiceContext, req: Request, res: Response) => Promise<void>;
}

/**
 * A file answer (an export: CSV, Markdown, or its JSON form) in an organization: the access of a
 * JsonRoute (`organization`, tokens with `tokenScope`), but `write` sets the headers and writes the
 * body itself, so it can stream. Errors thrown before it writes still reach the REST mapper.
 * OpenAPI lists each of `mediaTypes`: `application/json` as `output`, any other as text.
 */
export interface FileRoute extends RouteDocumentation, Grant {
  access: "organization";
  tokenScope?: RouteTokenScope;
  mediaTypes: readonly string[];
  write: (ctx: ServiceContext, req: Request, res: Response) => Promise<void>;
}

/** Answers anyone. Without a handler it is documented here but mounted by app.ts ahead of the JSON parser (the payment webhook reads its raw body). */
export type PublicRoute = RouteDocumentation & { access: "public" } & ({ handler: (req: Request) => unknown } | { mountedBeforeJson: true });

/**
 * One route of /api/v1, declared once in its domain's `*.rest.ts`: the v1 router, the OpenAPI
 * document and the API-token scope check are all derived from it (src/server/composition/).
 */
export type RestRoute = JsonRoute | CallerRoute | StreamRoute | FileRoute | PublicRoute;

/** The projects of an organization, and one of them: the base of the project-scoped paths. */
export const PROJECTS_PATH = "/organizations/:orgId/projects";
export const PROJECT_PATH = `${PROJECTS_PATH}/:projectId`;

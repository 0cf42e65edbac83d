import type { Request } from "express";
import type { ApiTokenScope } from "../../shared/api-token.inputs";
import { authenticateApiToken, bearerTokenOf, type TokenScope } from "../api-tokens/api-token-auth";
import type { AppServices, ServiceContext } from "../context";
import { AppError } from "../errors";
import { selectOrganizationByRef } from "../organizations/organization.queries";

/** A Sentry tool API request: the token's organization, named by the URL's `{org}` slug. */
export interface SentryContext extends ServiceContext {
  org: TokenScope;
  organization: { id: string; slug: string; name: string; createdAt: Date };
}

/** The caller's token; sentry-cli sends `Authorization: Bearer <token>`. */
export async function sentryToken(services: AppServices, req: Request): Promise<TokenScope> {
  const secret = bearerTokenOf(req.headers.authorization);
  if (!secret) throw new AppError("UNAUTHORIZED", "Authentication credentials were not provided.");
  try {
    return await authenticateApiToken(services, secret);
  } catch (error) {
    if (error instanceof AppError && error.code === "UNAUTHORIZED") throw new AppError("UNAUTHORIZED", "Invalid token");
    throw error;
  }
}

/**
 * The context of an `/organizations/{org}/…` or `/projects/{org}/…` call, `{org}` being the slug
 * (or, as Sentry's `organization_id_or_slug`, the id). Another organization's answers exactly what
 * an unknown one does (404): a token reaches only its own organization — the same lookup /api/v1 makes.
 */
export async function sentryContext(services: AppServices, req: Request, ref: string): Promise<SentryContext> {
  const token = await sentryToken(services, req);
  const row = await selectOrganizationByRef(services.db, token.organizationId, ref);
  if (!row) throw new AppError("NOT_FOUND", "The requested resource does not exist");
  return { ...services, requestId: String(req.id ?? ""), headers: new Headers(), session: null, org: token, organization: row };
}

/** Any token of the organization reads the organization and its projects; the rest needs a scope. */
export function requireScope(ctx: SentryContext, ...accepted: ApiTokenScope[]) {
  if (!accepted.some((scope) => ctx.org.scopes.includes(scope))) {
    throw new AppError("FORBIDDEN", `This API token lacks the ${accepted[0]} scope`);
  }
}

/** The scopes `GET /api/0/` reports in Sentry's names: `org:read` is implied by any token. */
export function sentryScopesOf(token: TokenScope): string[] {
  return ["org:read", ...token.scopes];
}

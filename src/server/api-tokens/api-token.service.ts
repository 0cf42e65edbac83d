import type { z } from "zod";
import { API_TOKEN_SCOPES, type ApiTokenScope, type CreateApiTokenInput } from "../../shared/api-token.inputs";
import type { ApiTokenView, CreatedApiToken } from "../../shared/api-token.views";
import type { apiTokens } from "../db/schema/index";
import { AppError, notFound } from "../errors";
import type { ServiceContext } from "../context";
import { permissionsOf, requirePermission } from "../organizations/permissions";
import { deleteToken, insertToken, selectTokens } from "./api-token.queries";
import { displayPrefix, generateTokenSecret, hashTokenSecret } from "./token-secret";

const DAY_MS = 86_400_000;

/** Tokens act for the whole organization: seeing them (names, scopes, creators) is for those who may create or revoke them. */
async function assertMaySeeTokens(ctx: ServiceContext) {
  const permissions = await permissionsOf(ctx);
  if (!permissions.has("apiToken:create") && !permissions.has("apiToken:revoke")) throw new AppError("FORBIDDEN", "Your role cannot see API tokens");
}

export function parseScopes(stored: string): ApiTokenScope[] {
  return stored.split(",").filter((scope): scope is ApiTokenScope => (API_TOKEN_SCOPES as readonly string[]).includes(scope));
}

function toView(row: typeof apiTokens.$inferSelect, creatorName: string | null): ApiTokenView {
  return {
    id: row.id,
    name: row.name,
    scopes: parseScopes(row.scopes),
    prefix: row.prefix,
    createdBy: creatorName === null ? null : { id: row.createdBy, name: creatorName },
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    expiresAt: row.expiresAt,
  };
}

export async function listApiTokens(ctx: ServiceContext): Promise<ApiTokenView[]> {
  await assertMaySeeTokens(ctx);
  const rows = await selectTokens(ctx.db, ctx.org.organizationId);
  return rows.map((row) => toView(row.token, row.creatorName));
}

export async function createApiToken(ctx: ServiceContext, input: z.output<typeof CreateApiTokenInput>): Promise<CreatedApiToken> {
  await requirePermission(ctx, "apiToken:create");
  const secret = generateTokenSecret();
  const row = await insertToken(ctx.db, {
    organizationId: ctx.org.organizationId,
    name: input.name,
    // Stored in the canonical order, so the same choice always reads the same.
    scopes: API_TOKEN_SCOPES.filter((scope) => input.scopes.includes(scope)).join(","),
    secretHash: hashTokenSecret(secret),
    prefix: displayPrefix(secret),
    createdBy: ctx.org.userId,
    expiresAt: input.expiresInDays === null ? null : new Date(Date.now() + input.expiresInDays * DAY_MS),
  });
  const [created] = await selectTokens(ctx.db, ctx.org.organizationId, row.id);
  return { token: toView(created.token, created.creatorName), secret };
}

export async function revokeApiToken(ctx: ServiceContext, tokenId: string): Promise<{ revoked: true }> {
  await requirePermission(ctx, "apiToken:revoke");
  if (!(await deleteToken(ctx.db, ctx.org.organizationId, tokenId))) throw notFound("API token");
  return { revoked: true };
}

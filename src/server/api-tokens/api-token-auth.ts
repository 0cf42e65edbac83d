import type { ApiTokenScope } from "../../shared/api-token.inputs";
import type { AppServices } from "../context";
import { AppError } from "../errors";
import type { OrgScope } from "../organizations/org-scope";
import { selectTokenByHash, touchToken } from "./api-token.queries";
import { parseScopes } from "./api-token.service";
import { hashTokenSecret, TOKEN_PATTERN } from "./token-secret";

/** A caller authenticated by an organization API token: it acts as the token's creator, in the token's organization only. */
export interface TokenScope extends OrgScope {
  tokenId: string;
  scopes: ApiTokenScope[];
}

/** One answer for every refused token (unknown, revoked, expired, creator gone), so none can be told apart. */
const invalidToken = () => new AppError("UNAUTHORIZED", "Invalid or revoked API token");

/** The secret of an `Authorization: Bearer …` header, or null when the request carries none. */
export function bearerTokenOf(authorization: string | null | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  return match ? match[1] : null;
}

/**
 * Checks a bearer secret against the stored hashes and the creator's current membership. Read
 * on every request, like session memberships: a revoked token or a creator who left is refused
 * at once. Leaving deletes the creator's tokens (schema/api-tokens.ts); the membership join is a
 * second lock on the same door, and supplies the role the token acts with.
 */
export async function authenticateApiToken(ctx: Pick<AppServices, "db" | "logger">, secret: string, now = new Date()): Promise<TokenScope> {
  if (!TOKEN_PATTERN.test(secret)) throw invalidToken();
  const row = await selectTokenByHash(ctx.db, hashTokenSecret(secret));
  if (!row || row.role === null) throw invalidToken();
  if (row.token.expiresAt && row.token.expiresAt <= now) throw invalidToken();
  touchToken(ctx.db, row.token.id, now).catch((error: unknown) => ctx.logger.warn("api token last-used update failed", { tokenId: row.token.id, err: error }));
  return {
    organizationId: row.token.organizationId,
    userId: row.token.createdBy,
    role: row.role,
    tokenId: row.token.id,
    scopes: parseScopes(row.token.scopes),
  };
}

export function assertTokenScope(token: TokenScope, required: ApiTokenScope) {
  if (!token.scopes.includes(required)) throw new AppError("FORBIDDEN", `This API token lacks the ${required} scope`);
}

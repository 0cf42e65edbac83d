import { and, eq, isNotNull, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { account } from "../db/schema/auth";
import { isSealed, type SecretBox } from "../secrets/secret-box";
import { OAUTH_TOKEN_FIELDS, oauthTokenContext } from "./oauth-token-sealing";

// Anything not shaped like `v<version>:…` was written before tokens were sealed.
const unsealed = (column: (typeof account)[(typeof OAUTH_TOKEN_FIELDS)[number]]) => and(isNotNull(column), sql`${column} !~ '^v[0-9]+:'`);

/**
 * Seals OAuth tokens stored in plaintext before sealing existed; run once per start, after the
 * migrations. Idempotent, and cheap once done (the filter finds nothing). Each row is written with
 * a compare-and-set on the values it read: a sign-in that stores fresh (sealed) tokens meanwhile
 * wins, and two replicas starting together cannot overwrite each other with older tokens.
 * Returns how many rows it sealed.
 */
export async function sealLegacyOAuthTokens(db: Db, box: SecretBox): Promise<number> {
  const rows = await db
    .select({ id: account.id, userId: account.userId, accessToken: account.accessToken, refreshToken: account.refreshToken, idToken: account.idToken })
    .from(account)
    .where(or(...OAUTH_TOKEN_FIELDS.map((field) => unsealed(account[field]))));
  let sealed = 0;
  for (const row of rows) {
    const update: Partial<Record<(typeof OAUTH_TOKEN_FIELDS)[number], string>> = {};
    const unchanged: SQL[] = [eq(account.id, row.id)];
    for (const field of OAUTH_TOKEN_FIELDS) {
      const value = row[field];
      if (value === null || isSealed(value)) continue;
      update[field] = box.seal(value, oauthTokenContext(row.userId, field));
      unchanged.push(eq(account[field], value));
    }
    if (Object.keys(update).length === 0) continue;
    const written = await db
      .update(account)
      .set(update)
      .where(and(...unchanged))
      .returning({ id: account.id });
    sealed += written.length;
  }
  return sealed;
}

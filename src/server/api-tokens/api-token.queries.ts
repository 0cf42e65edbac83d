import { and, desc, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { apiTokens, member, user } from "../db/schema/index";

/** The organization's tokens with their creators' names, newest first (or just `tokenId`). */
export function selectTokens(db: Db, organizationId: string, tokenId?: string) {
  return db
    .select({ token: apiTokens, creatorName: user.name })
    .from(apiTokens)
    .leftJoin(user, eq(user.id, apiTokens.createdBy))
    .where(and(eq(apiTokens.organizationId, organizationId), tokenId ? eq(apiTokens.id, tokenId) : undefined))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
}

export async function insertToken(db: Db, row: typeof apiTokens.$inferInsert) {
  const [inserted] = await db.insert(apiTokens).values(row).returning();
  return inserted;
}

export async function deleteToken(db: Db, organizationId: string, tokenId: string): Promise<boolean> {
  const deleted = await db
    .delete(apiTokens)
    .where(and(eq(apiTokens.organizationId, organizationId), eq(apiTokens.id, tokenId)))
    .returning({ id: apiTokens.id });
  return deleted.length > 0;
}

/** The token with its creator's CURRENT membership role in the token's organization (null once they left). */
export async function selectTokenByHash(db: Db, secretHash: string) {
  const [row] = await db
    .select({ token: apiTokens, role: member.role })
    .from(apiTokens)
    .leftJoin(member, and(eq(member.organizationId, apiTokens.organizationId), eq(member.userId, apiTokens.createdBy)))
    .where(eq(apiTokens.secretHash, secretHash))
    .limit(1);
  return row;
}

/** At most one write a minute per token, however busy it is. */
export async function touchToken(db: Db, tokenId: string, now: Date) {
  await db
    .update(apiTokens)
    .set({ lastUsedAt: now })
    .where(
      and(
        eq(apiTokens.id, tokenId),
        or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, sql`${now.toISOString()}::timestamptz - interval '60 seconds'`)),
      ),
    );
}

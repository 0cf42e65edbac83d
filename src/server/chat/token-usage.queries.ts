import { and, desc, eq, gte } from "drizzle-orm";
import type { Db } from "../db/client";
import { aiTokenUsage } from "../db/schema/index";

export const utcToday = (now = new Date()) => now.toISOString().slice(0, 10);

export async function tokensUsedOn(db: Db, organizationId: string, day = utcToday()) {
  const [row] = await db
    .select({ inputTokens: aiTokenUsage.inputTokens, outputTokens: aiTokenUsage.outputTokens })
    .from(aiTokenUsage)
    .where(and(eq(aiTokenUsage.organizationId, organizationId), eq(aiTokenUsage.day, day)));
  return row ? row.inputTokens + row.outputTokens : 0;
}

export function selectUsageSince(db: Db, organizationId: string, fromDay: string) {
  return db
    .select({ day: aiTokenUsage.day, inputTokens: aiTokenUsage.inputTokens, outputTokens: aiTokenUsage.outputTokens })
    .from(aiTokenUsage)
    .where(and(eq(aiTokenUsage.organizationId, organizationId), gte(aiTokenUsage.day, fromDay)))
    .orderBy(desc(aiTokenUsage.day));
}

import { and, desc, eq, gte, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { aiTokenUsage } from "../db/schema/index";

export const utcToday = (now = new Date()) => now.toISOString().slice(0, 10);

/** Adds one model call's reported usage to the organization's day (one upsert, no read-modify-write race). */
export async function addTokenUsage(db: Db, organizationId: string, inputTokens: number, outputTokens: number, day = utcToday()) {
  await db
    .insert(aiTokenUsage)
    .values({ organizationId, day, inputTokens, outputTokens })
    .onConflictDoUpdate({
      target: [aiTokenUsage.organizationId, aiTokenUsage.day],
      set: { inputTokens: sql`${aiTokenUsage.inputTokens} + excluded.input_tokens`, outputTokens: sql`${aiTokenUsage.outputTokens} + excluded.output_tokens` },
    });
}

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

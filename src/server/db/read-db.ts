import type { Db } from "./client";

/**
 * The Db for a verb's reads that tolerate lag: the request's `readDb` (the read replica when the
 * request may use it, context.ts), else the primary.
 */
export function readDbOf(ctx: { db: Db; readDb?: Db }): Db {
  return ctx.readDb ?? ctx.db;
}

import type { SQL } from "drizzle-orm";
import type { Db } from "./client";

/** Raw SQL rows from either driver (postgres.js answers an array, PGlite an object with rows). */
export async function executeRows<T>(db: Pick<Db, "execute">, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown;
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

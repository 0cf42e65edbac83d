import { and, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

// The sealed form is `v<key version>:…` (secret-box.ts). Anything else in a sealed column is a
// value written before it was sealed (OAuth tokens of older releases), which no key opens or needs.

/** The value has the sealed form. */
export const isSealedValue = (column: AnyPgColumn): SQL => sql`${column} ~ '^v[0-9]+:'`;

/** The value was sealed with key `version`. */
export const sealedWithVersion = (column: AnyPgColumn, version: number): SQL => sql`${column} like ${`v${version}:%`}`;

/** The value was sealed with a key other than `version`: what a reseal to `version` rewrites. */
export const sealedWithOtherThan = (column: AnyPgColumn, version: number): SQL => and(isSealedValue(column), sql`${column} not like ${`v${version}:%`}`)!;

/** The key version a stored value was sealed with, as SQL (null for a value that is not sealed). */
export const keyVersionOf = (column: AnyPgColumn): SQL<string | null> => sql<string | null>`substring(${column} from '^v([0-9]+):')`;

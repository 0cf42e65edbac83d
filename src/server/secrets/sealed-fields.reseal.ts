import { and, asc, eq, getTableColumns, gt, or, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Db } from "../db/client";
import type { Keyring } from "./keyring";
import { SEALED_FAMILIES, type SealedFamily } from "./sealed-fields";
import { sealedWithOtherThan } from "./sealed-fields.sql";
import { createSecretBox, isSealed, SecretOpenError, type SecretBox } from "./secret-box";

/** What a reseal did to one family. */
export interface ResealCount {
  label: string;
  /** Rows written with the current key. */
  rows: number;
  /** Values in them that were sealed with an older key. */
  values: number;
  /** Values no listed key opens (altered, or sealed for another row): left as they are. */
  unopenable: number;
}

const BATCH_ROWS = 200;
// A pass ends when a concurrent write won a row's compare-and-set; the next pass picks the row up
// again if that write was still sealed with an older key (a replica not yet given the new one).
const MAX_PASSES = 5;

type Row = Record<string, unknown>;

/**
 * Key rotation's second step: re-seals every value of every sealed family (sealed-fields.ts) that
 * was not sealed with SECRETS_KEY's current (first) key. Afterwards older keys can be dropped.
 */
export async function resealSecrets(db: Db, keyring: Keyring): Promise<ResealCount[]> {
  const box = createSecretBox(keyring);
  const counts: ResealCount[] = [];
  for (const family of SEALED_FAMILIES) counts.push(await resealFamily(db, box, keyring.current.version, family));
  return counts;
}

async function resealFamily(db: Db, box: SecretBox, current: number, family: SealedFamily): Promise<ResealCount> {
  const count: ResealCount = { label: family.label, rows: 0, values: 0, unopenable: 0 };
  const unopenable = new Set<string>();
  const selection: Record<string, AnyPgColumn> = { rowId: family.id, ...family.owner };
  for (const field of family.sealed) selection[field.name] = field.column;
  const older = or(...family.sealed.map((field) => sealedWithOtherThan(field.column, current)))!;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    let lost = 0;
    let after: unknown = undefined;
    for (;;) {
      const rows: Row[] = await db
        .select(selection)
        .from(family.table)
        .where(after === undefined ? older : and(older, gt(family.id, after)))
        .orderBy(asc(family.id))
        .limit(BATCH_ROWS);
      for (const row of rows) {
        const outcome = await resealRow(db, box, current, family, row, unopenable);
        if (outcome === "lost") lost += 1;
        else if (outcome > 0) {
          count.rows += 1;
          count.values += outcome;
        }
      }
      if (rows.length < BATCH_ROWS) break;
      after = rows.at(-1)!.rowId;
    }
    if (lost === 0) break;
  }
  count.unopenable = unopenable.size;
  return count;
}

/** Re-seals one row's older values; answers how many, or "lost" when a concurrent write changed the row first. */
async function resealRow(db: Db, box: SecretBox, current: number, family: SealedFamily, row: Row, unopenable: Set<string>): Promise<number | "lost"> {
  const owner = Object.fromEntries(Object.keys(family.owner).map((name) => [name, String(row[name])]));
  const update: Record<string, string> = {};
  const unchanged: SQL[] = [eq(family.id, row.rowId)];
  for (const field of family.sealed) {
    const value = row[field.name];
    if (typeof value !== "string" || !isSealed(value) || value.startsWith(`v${current}:`)) continue;
    try {
      update[propertyOf(family, field.column)] = box.seal(box.open(value, field.context(owner)), field.context(owner));
      unchanged.push(eq(field.column, value));
    } catch (error) {
      if (!(error instanceof SecretOpenError)) throw error;
      unopenable.add(`${String(row.rowId)}:${field.name}`);
    }
  }
  const values = Object.keys(update).length;
  if (values === 0) return 0;
  // Compare-and-set on the values read: an edit, reconnect or sign-in that stored a new value
  // meanwhile wins, instead of being overwritten with the older value re-sealed.
  const written = await db
    .update(family.table)
    .set(update as never)
    .where(and(...unchanged))
    .returning({ id: family.id });
  return written.length === 1 ? values : "lost";
}

/** The property name drizzle's update takes for a column of the family's table. */
function propertyOf(family: SealedFamily, column: AnyPgColumn): string {
  const entry = Object.entries(getTableColumns(family.table)).find(([, candidate]) => candidate === column);
  if (!entry) throw new Error(`${family.label}: a sealed column is not a column of its table`);
  return entry[0];
}

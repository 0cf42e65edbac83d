import { count } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Db } from "../db/client";
import { InvalidEnvironmentError } from "../env";
import type { Keyring } from "./keyring";
import { SEALED_FAMILIES, type SealedColumn, type SealedFamily } from "./sealed-fields";
import { isSealedValue, keyVersionOf, sealedWithVersion } from "./sealed-fields.sql";
import { createSecretBox, SecretOpenError, type SecretBox } from "./secret-box";

// A wrong key fails every value; one altered row must not stop the server, so a version counts as
// openable when any of a few of its values opens.
const SAMPLES_PER_VERSION = 3;

/**
 * Start-up check over every sealed family (sealed-fields.ts): a SECRETS_KEY that is well-formed
 * but lacks a key version the stored values were sealed with (an old key dropped before
 * `npm run secrets:reseal`), or holds other key material under that version, must stop the server
 * with a clear message, not surface later as every alert, linked account or integration failing.
 */
export async function assertSealedSecretsOpen(db: Db, keyring: Keyring): Promise<void> {
  const box = createSecretBox(keyring);
  const problems: string[] = [];
  for (const family of SEALED_FAMILIES) problems.push(...(await problemsOf(db, box, keyring, family)));
  if (problems.length > 0) throw new InvalidEnvironmentError(problems);
}

async function problemsOf(db: Db, box: SecretBox, keyring: Keyring, family: SealedFamily): Promise<string[]> {
  const valuesByVersion = new Map<number, number>();
  const columnsByVersion = new Map<number, SealedColumn<string>[]>();
  for (const field of family.sealed) {
    for (const { version, values } of await versionsIn(db, family, field.column)) {
      valuesByVersion.set(version, (valuesByVersion.get(version) ?? 0) + values);
      columnsByVersion.set(version, [...(columnsByVersion.get(version) ?? []), field]);
    }
  }
  const problems: string[] = [];
  for (const [version, values] of [...valuesByVersion].sort(([a], [b]) => a - b)) {
    if (!keyring.byVersion.has(version)) {
      problems.push(
        `SECRETS_KEY: ${values} stored ${family.label} value(s) are sealed with key version ${version}, which SECRETS_KEY does not list. Put that key back after the current one (e.g. SECRETS_KEY=${keyring.current.version}:<new>,${version}:<old>), run \`npm run secrets:reseal\`, and only then drop it.`,
      );
    } else if (!(await anyOpens(db, box, family, columnsByVersion.get(version)!, version))) {
      problems.push(
        `SECRETS_KEY: cannot open the stored ${family.label} (sealed with key version ${version}); this is not the key they were sealed with. Set the key they were sealed with (to rotate, list the new key first and the old one after it).`,
      );
    }
  }
  return problems;
}

async function versionsIn(db: Db, family: SealedFamily, column: AnyPgColumn): Promise<{ version: number; values: number }[]> {
  const version = keyVersionOf(column);
  const rows = await db.select({ version, values: count() }).from(family.table).where(isSealedValue(column)).groupBy(version);
  return rows.map((row) => ({ version: Number(row.version), values: Number(row.values) }));
}

async function anyOpens(db: Db, box: SecretBox, family: SealedFamily, fields: SealedColumn<string>[], version: number): Promise<boolean> {
  for (const field of fields) {
    const rows: Record<string, unknown>[] = await db
      .select({ ...family.owner, value: field.column })
      .from(family.table)
      .where(sealedWithVersion(field.column, version))
      .limit(SAMPLES_PER_VERSION);
    for (const row of rows) {
      const owner = Object.fromEntries(Object.keys(family.owner).map((name) => [name, String(row[name])]));
      try {
        box.open(String(row.value), field.context(owner));
        return true;
      } catch (error) {
        if (!(error instanceof SecretOpenError)) throw error;
      }
    }
  }
  return false;
}

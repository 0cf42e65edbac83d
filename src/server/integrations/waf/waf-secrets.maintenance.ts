import { eq, isNotNull } from "drizzle-orm";
import type { Db } from "../../db/client";
import { wafConnections } from "../../db/schema/index";
import { InvalidEnvironmentError } from "../../env";
import { SecretOpenError, type SecretBox } from "../../secrets/secret-box";
import { openWafKeys, sealWafKeys } from "./waf-credentials";

const sealedRows = (db: Db) =>
  db
    .select({
      organizationId: wafConnections.organizationId,
      accessKeyIdSealed: wafConnections.accessKeyIdSealed,
      secretAccessKeySealed: wafConnections.secretAccessKeySealed,
    })
    .from(wafConnections)
    .where(isNotNull(wafConnections.secretAccessKeySealed));

/**
 * Start-up check: a SECRETS_KEY that is well-formed but not the one the stored credentials were
 * sealed with must stop the server with a clear message, not surface later as "garbage" or as
 * every organization's integration failing at once. One sealed value per key version is tried.
 */
export async function assertWafSecretsOpen(db: Db, box: SecretBox): Promise<void> {
  const triedVersions = new Set<string>();
  for (const row of await sealedRows(db)) {
    const version = /^v(\d+):/.exec(row.secretAccessKeySealed ?? "")?.[1] ?? "?";
    if (triedVersions.has(version)) continue;
    triedVersions.add(version);
    try {
      openWafKeys(box, row.organizationId, { accessKeyIdSealed: row.accessKeyIdSealed!, secretAccessKeySealed: row.secretAccessKeySealed! });
    } catch (error) {
      if (!(error instanceof SecretOpenError)) throw error;
      throw new InvalidEnvironmentError([
        `SECRETS_KEY: cannot open the stored AWS WAF credentials (sealed with key version ${version}); this is not the key they were sealed with. Set the key they were sealed with (to rotate, list the new key first and the old one after it).`,
      ]);
    }
  }
}

/**
 * Key rotation: re-seals every stored WAF credential with SECRETS_KEY's current (first) key.
 * Run after putting a new key first in SECRETS_KEY; once it has run, older versions can be dropped.
 * Returns how many connections were re-sealed.
 */
export async function resealWafSecrets(db: Db, box: SecretBox): Promise<number> {
  let count = 0;
  for (const row of await sealedRows(db)) {
    const keys = openWafKeys(box, row.organizationId, { accessKeyIdSealed: row.accessKeyIdSealed!, secretAccessKeySealed: row.secretAccessKeySealed! });
    await db
      .update(wafConnections)
      .set(sealWafKeys(box, row.organizationId, keys))
      .where(eq(wafConnections.organizationId, row.organizationId));
    count += 1;
  }
  return count;
}

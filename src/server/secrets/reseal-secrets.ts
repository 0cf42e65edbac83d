/**
 * `npm run secrets:reseal` — key rotation's second step. Put the new key first in SECRETS_KEY
 * (`2:<new>,1:<old>`), run this once: every sealed value of every family in sealed-fields.ts (AWS
 * WAF credentials, alert action URLs and signing secrets, OAuth tokens of linked accounts) is
 * opened with whichever listed key sealed it and sealed again with the new one. Afterwards the old
 * key can be removed; the start-up check refuses a SECRETS_KEY that still misses a version in use.
 */
import { resolveSecretsKeyring } from "../auth/secret";
import { createDatabase } from "../db/client";
import { InvalidEnvironmentError, parseEnv } from "../env";
import { resealSecrets } from "./sealed-fields.reseal";

async function main() {
  const env = parseEnv();
  const keyring = resolveSecretsKeyring(env);
  const database = createDatabase({ databaseUrl: env.DATABASE_URL, pgliteDataDir: env.PGLITE_DATA_DIR });
  try {
    await database.migrate();
    const counts = await resealSecrets(database.db, keyring);
    for (const { label, rows, values } of counts) {
      process.stdout.write(`${label}: re-sealed ${values} value(s) in ${rows} row(s) with key version ${keyring.current.version}\n`);
    }
    const unopenable = counts.filter((count) => count.unopenable > 0);
    for (const { label, unopenable: values } of unopenable) {
      process.stderr.write(`${label}: ${values} value(s) open with no listed key (altered, or copied from another row) and were left as they are\n`);
    }
    // Those values keep their old key version: dropping it now would stop the next start-up.
    if (unopenable.length > 0) process.exitCode = 1;
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof InvalidEnvironmentError ? error.message : error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});

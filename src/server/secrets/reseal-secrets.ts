/**
 * `npm run secrets:reseal` — key rotation's second step. Put the new key first in SECRETS_KEY
 * (`2:<new>,1:<old>`), run this once: every sealed AWS WAF credential is opened with whichever
 * listed key sealed it and sealed again with the new one. Afterwards the old key can be removed.
 */
import { resolveSecretsKeyring } from "../auth/secret";
import { createDatabase } from "../db/client";
import { InvalidEnvironmentError, parseEnv } from "../env";
import { resealWafSecrets } from "../integrations/waf/waf-secrets.maintenance";
import { createSecretBox } from "./secret-box";

async function main() {
  const env = parseEnv();
  const keyring = resolveSecretsKeyring(env);
  const database = createDatabase({ databaseUrl: env.DATABASE_URL, pgliteDataDir: env.PGLITE_DATA_DIR });
  try {
    await database.migrate();
    const count = await resealWafSecrets(database.db, createSecretBox(keyring));
    process.stdout.write(`re-sealed ${count} AWS WAF connection(s) with key version ${keyring.current.version}\n`);
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof InvalidEnvironmentError ? error.message : error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});

import { resolveSecretsKeyring } from "./auth/secret";
import { assertStartable, parseEnv, type Env } from "./env";
import type { Keyring } from "./secrets/keyring";
import { createSecretBox, type SecretBox } from "./secrets/secret-box";

/**
 * Every rule that stops the server before it opens its database: the environment parses, the
 * combination is startable (production mail), and the secrets keyring resolves. Each throws
 * InvalidEnvironmentError, which main.ts prints before exiting 1 — so the rules are tested here,
 * in-process, and the exit itself once by spawning main.ts. Without `source`, parseEnv reads the
 * process's environment.
 */
export function loadStartupEnvironment(source?: NodeJS.ProcessEnv): { env: Env; keyring: Keyring; secretBox: SecretBox } {
  const env = parseEnv(source);
  assertStartable(env);
  const keyring = resolveSecretsKeyring(env);
  return { env, keyring, secretBox: createSecretBox(keyring) };
}

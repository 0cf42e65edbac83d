import { resolveSecretsKeyring } from "./auth/secret";
import { InvalidEnvironmentError, parseEnv, startupProblems, type Env } from "./env";
import type { Keyring } from "./secrets/keyring";
import { createSecretBox, type SecretBox } from "./secrets/secret-box";

/**
 * Every rule that stops the server before it opens its database: the environment parses, the
 * combination is startable (production mail and secrets), and the secrets keyring resolves. All
 * problems are gathered into one InvalidEnvironmentError, each with how to fix it (issue 37: one
 * problem per start cost three failed starts), which main.ts prints before exiting 1 — so the
 * rules are tested here, in-process, and the exit itself once by spawning main.ts. Without
 * `source`, the process's environment is read.
 */
export function loadStartupEnvironment(source: NodeJS.ProcessEnv = process.env): { env: Env; keyring: Keyring; secretBox: SecretBox } {
  const problems: string[] = [];
  let env: Env | null = null;
  try {
    env = parseEnv(source);
  } catch (error) {
    if (!(error instanceof InvalidEnvironmentError)) throw error;
    problems.push(...error.issues);
  }
  problems.push(...startupProblems(source));
  if (!env || problems.length > 0) throw new InvalidEnvironmentError(problems);
  const keyring = resolveSecretsKeyring(env);
  return { env, keyring, secretBox: createSecretBox(keyring) };
}

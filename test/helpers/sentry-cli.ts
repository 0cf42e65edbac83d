import { execFile } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");

/** The real sentry-cli from npm: 3.x (`@sentry/cli`) and 2.x (`@sentry/cli-v2`, an npm alias). */
export const SENTRY_CLI = {
  "3.x": [path.join(ROOT, "node_modules/.bin/sentry-cli")],
  "2.x": [process.execPath, path.join(ROOT, "node_modules/@sentry/cli-v2/bin/sentry-cli")],
} as const;

export interface SentryCliTarget {
  /** The Faultline server (a test server's URL). */
  url: string;
  token: string;
  org: string;
  project: string;
  /** A scratch folder: the CLI's HOME (no user config is read) and its working directory. */
  work: string;
}

/**
 * Runs the real sentry-cli against a loopback Faultline: no update check, no config file or
 * .env, no retries. Rejects with the CLI's output when it fails.
 */
export async function sentryCli(target: SentryCliTarget, args: string[], version: keyof typeof SENTRY_CLI = "3.x"): Promise<string> {
  const home = path.join(target.work, "home");
  mkdirSync(home, { recursive: true });
  const [command, ...prefix] = SENTRY_CLI[version];
  try {
    const { stdout, stderr } = await run(command, [...prefix, ...args], {
      cwd: target.work,
      timeout: 120_000,
      env: {
        PATH: process.env.PATH,
        HOME: home,
        // The test server listens on 127.0.0.1 only; `localhost` may resolve to ::1 first.
        SENTRY_URL: target.url.replace("localhost", "127.0.0.1"),
        SENTRY_AUTH_TOKEN: target.token,
        SENTRY_ORG: target.org,
        SENTRY_PROJECT: target.project,
        SENTRY_DISABLE_UPDATE_CHECK: "true",
        SENTRY_LOAD_DOTENV: "0",
        SENTRY_NO_PROGRESS_BARS: "1",
        SENTRY_LOG_LEVEL: "warn",
        SENTRY_HTTP_MAX_RETRIES: "0",
      },
    });
    return `${stdout}${stderr}`;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    throw new Error(`sentry-cli ${args.join(" ")} failed: ${failed.stdout ?? ""}${failed.stderr ?? ""}`);
  }
}

import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const PROGRAM = path.join(import.meta.dirname, "../ingest/sentry-node-program.mjs");

/** Runs the real @sentry/node SDK in its own process and returns the event ids it captured. */
export async function runSentryNode(dsn: string, count: number, mode: "plain" | "gzip"): Promise<string[]> {
  const { stdout } = await run(process.execPath, [PROGRAM, dsn, String(count), mode], { timeout: 60_000 });
  const last = stdout.trim().split("\n").at(-1) ?? "{}";
  return JSON.parse(last).ids;
}

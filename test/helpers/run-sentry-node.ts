import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const PROGRAM = path.join(import.meta.dirname, "../ingest/sentry-node-program.mjs");

/** Runs the real @sentry/node SDK in its own process and returns the event ids it captured. */
export async function runSentryNode(
  dsn: string,
  count: number,
  mode: "plain" | "gzip",
  options: { environment?: string; handler?: "lookup" | "search" } = {},
): Promise<string[]> {
  const args = [PROGRAM, dsn, String(count), mode, options.environment ?? "staging", options.handler ?? "lookup"];
  const { stdout } = await run(process.execPath, args, { timeout: 60_000 });
  const last = stdout.trim().split("\n").at(-1) ?? "{}";
  return JSON.parse(last).ids;
}

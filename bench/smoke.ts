/**
 * `npm run bench:smoke`: runs every other `bench:*` script of package.json with `--smoke`, one
 * after the other, and fails if any of them fails. A benchmark added to package.json is covered
 * without editing this file; it only has to accept `--smoke` (see bench-args.ts).
 * Databases: PGlite by default, a throwaway database on DATABASE_URL's server when that is set.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const { scripts } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> };
const benches = Object.keys(scripts).filter((name) => name.startsWith("bench:") && name !== "bench:smoke");
if (benches.length === 0) {
  console.error("bench:smoke: package.json has no bench:* script to run");
  process.exit(1);
}

const results: { name: string; seconds: number; ok: boolean }[] = [];
for (const name of benches) {
  console.log(`\n== ${name} --smoke (${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"})`);
  const started = performance.now();
  const run = spawnSync("npm", ["run", "--silent", name, "--", "--smoke"], { cwd: root, stdio: "inherit", env: process.env });
  results.push({ name, seconds: Math.round((performance.now() - started) / 100) / 10, ok: run.status === 0 });
}

console.log("\n| benchmark | smoke | seconds |\n| --- | --- | ---: |");
for (const r of results) console.log(`| ${r.name} | ${r.ok ? "ok" : "FAILED"} | ${r.seconds} |`);
const failed = results.filter((r) => !r.ok);
if (failed.length > 0) {
  console.error(`bench:smoke: ${failed.map((r) => r.name).join(", ")} failed`);
  process.exit(1);
}

import { execSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import path from "node:path";

const README = path.join(import.meta.dirname, "README.md");

/** Replaces (or adds) one benchmark's section in bench/README.md with the latest figures. */
export function appendResults(name: string, meta: { commit: string; machine: string; method: string }, table: string) {
  const current = existsSync(README) ? readFileSync(README, "utf8") : "# Benchmarks\n";
  const heading = `## ${name}`;
  const section = `${heading}\n\nCommit ${meta.commit}, ${new Date().toISOString().slice(0, 10)}, ${meta.machine}; ${meta.method}\n\n${table}\n\n`;
  const start = current.indexOf(heading);
  if (start === -1) {
    writeFileSync(README, `${current.trimEnd()}\n\n${section}`);
    return;
  }
  const end = current.indexOf("\n## ", start + heading.length);
  writeFileSync(README, `${current.slice(0, start)}${section}${end === -1 ? "" : current.slice(end + 1)}`);
}

/** The short hash of the checked-out commit, for a section's header. */
export const currentCommit = () => execSync("git rev-parse --short HEAD").toString().trim();

/** "2 × Intel Xeon …, 24 GiB, Node v20…" and the database engine, for a section's header. */
export const machineDescription = (engine: string) =>
  `${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${engine}`;

import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "./app-process";

const BIN = "/usr/lib/postgresql/15/bin";

/** Runs a PostgreSQL binary as the postgres user (initdb and pg_ctl refuse to run as root). */
function asPostgres(binary: string, args: string[]) {
  const command = process.getuid?.() === 0 ? ["runuser", ["-u", "postgres", "--", path.join(BIN, binary), ...args]] : [path.join(BIN, binary), args];
  return execFileSync(command[0] as string, command[1] as string[], { stdio: "pipe", timeout: 60_000 }).toString();
}

export interface PrivatePostgres {
  url: string;
  /** `pg_ctl restart -m fast|immediate`: the chaos the durability battery asks for. */
  restart(mode: "fast" | "immediate"): void;
  stop(mode?: "fast" | "immediate"): void;
  start(): void;
  destroy(): void;
}

/**
 * A throwaway PostgreSQL cluster of our own, so chaos tests can restart it without disturbing
 * the shared server other suites are using at the same time.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const dir = mkdtempSync(path.join(tmpdir(), "faultline-pg-"));
  chmodSync(dir, 0o777);
  const dataDir = path.join(dir, "data");
  const port = await freePort();
  if (process.getuid?.() === 0) execFileSync("chown", ["postgres", dir]);
  asPostgres("initdb", ["-D", dataDir, "-A", "trust", "-U", "postgres", "--no-sync"]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=on -c synchronous_commit=on -c max_connections=50`;
  const start = () => asPostgres("pg_ctl", ["-D", dataDir, "-o", options, "-l", path.join(dir, "log"), "-w", "start"]);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    restart: (mode) => asPostgres("pg_ctl", ["-D", dataDir, "-o", options, "-l", path.join(dir, "log"), "-m", mode, "-w", "restart"]),
    stop: (mode = "fast") => asPostgres("pg_ctl", ["-D", dataDir, "-m", mode, "-w", "stop"]),
    start,
    destroy: () => {
      try {
        asPostgres("pg_ctl", ["-D", dataDir, "-m", "immediate", "-w", "stop"]);
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

import { execFile, execFileSync, spawnSync } from "node:child_process";
import { promisify } from "node:util";
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { freePort } from "./app-process";

const BIN = "/usr/lib/postgresql/15/bin";
const asRoot = () => process.getuid?.() === 0;

/** A PostgreSQL binary as the postgres user: PostgreSQL refuses to run as root. */
function commandOf(binary: string, args: string[]): [string, string[]] {
  return asRoot() ? ["runuser", ["-u", "postgres", "--", path.join(BIN, binary), ...args]] : [path.join(BIN, binary), args];
}

function asPostgres(binary: string, args: string[]) {
  const [command, argv] = commandOf(binary, args);
  return execFileSync(command, argv, { stdio: "pipe", timeout: 120_000 }).toString();
}

/** The same without blocking this process's event loop (its servers keep answering meanwhile). */
async function asPostgresAsync(binary: string, args: string[]) {
  const [command, argv] = commandOf(binary, args);
  await promisify(execFile)(command, argv, { timeout: 120_000 });
}

function serverOf(primaryUrl: string) {
  const url = new URL(primaryUrl);
  return { host: url.hostname, port: url.port || "5432", user: decodeURIComponent(url.username || "postgres") };
}

/**
 * Whether the server accepts a replication connection from here (pg_hba.conf needs a
 * `replication` line: `all` does not cover it). Checked with psql, once, when the suite loads.
 */
export function replicationAllowed(primaryUrl: string | undefined): boolean {
  if (!primaryUrl) return false;
  const { host, port, user } = serverOf(primaryUrl);
  const probe = spawnSync("psql", [`host=${host} port=${port} user=${user} dbname=postgres replication=true`, "-Atc", "IDENTIFY_SYSTEM"], {
    stdio: "pipe",
    timeout: 10_000,
  });
  if (probe.status !== 0) process.stderr.write(`read replica suite skipped: no replication connection to ${host}:${port} (${String(probe.stderr).trim()})\n`);
  return probe.status === 0;
}

export interface Standby {
  /** `postgres://…` on the standby, for one database of the primary's cluster. */
  urlFor(database: string): string;
  /** `pg_ctl stop -m fast`: connections are ended, as when a replica is taken down. */
  stop(): Promise<void>;
  /** Stops it if it runs and removes its directory; safe to call twice. */
  destroy(): void;
}

/**
 * A real streaming-replication standby of the primary's whole cluster: `pg_basebackup -R -X
 * stream` into a temporary directory, started with this machine's PostgreSQL 15 binaries on a free
 * loopback port. Layouts that keep the configuration outside the data directory (Debian's
 * /etc/postgresql) get a minimal postgresql.conf and pg_hba.conf of its own.
 */
export async function startStandby(primaryUrl: string): Promise<Standby> {
  const { host, port: primaryPort, user } = serverOf(primaryUrl);
  const dir = mkdtempSync(path.join(tmpdir(), "faultline-standby-"));
  const dataDir = path.join(dir, "data");
  if (asRoot()) execFileSync("chown", ["postgres:postgres", dir]);
  chmodSync(dir, 0o700);
  let running = false;
  const destroy = () => {
    if (running) {
      try {
        asPostgres("pg_ctl", ["-D", dataDir, "-m", "immediate", "-w", "stop"]);
      } catch {
        // already stopped
      }
      running = false;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // A fast checkpoint: the default waits for the next scheduled one (up to checkpoint_timeout).
    asPostgres("pg_basebackup", ["-h", host, "-p", primaryPort, "-U", user, "-D", dataDir, "-R", "-X", "stream", "--checkpoint=fast", "--no-sync"]);
    const own = (file: string, text: string) => {
      const target = path.join(dataDir, file);
      if (existsSync(target)) return;
      writeFileSync(target, text);
      if (asRoot()) execFileSync("chown", ["postgres:postgres", target]);
    };
    own("postgresql.conf", "");
    own("pg_hba.conf", "local all all trust\nhost all all 127.0.0.1/32 trust\n");
    own("pg_ident.conf", "");
    // A hot standby needs at least the primary's values of these, which the copy may not carry.
    const primary = postgres(primaryUrl, { max: 1, onnotice: () => {} });
    const settings = await primary<{ name: string; setting: string }[]>`select name, setting from pg_settings
      where name in ('max_connections', 'max_worker_processes', 'max_wal_senders', 'max_prepared_transactions', 'max_locks_per_transaction')`;
    await primary.end();
    const port = await freePort();
    const options = [
      `-p ${port}`,
      `-c listen_addresses=127.0.0.1`,
      `-c unix_socket_directories=${dir}`,
      "-c hot_standby=on",
      "-c ssl=off",
      ...settings.map((row) => `-c ${row.name}=${row.setting}`),
    ].join(" ");
    asPostgres("pg_ctl", ["-D", dataDir, "-o", options, "-l", path.join(dir, "log"), "-w", "-t", "60", "start"]);
    running = true;
    return {
      urlFor: (database) => `postgres://${encodeURIComponent(user)}@127.0.0.1:${port}/${database}`,
      stop: async () => {
        await asPostgresAsync("pg_ctl", ["-D", dataDir, "-m", "fast", "-w", "stop"]);
        running = false;
      },
      destroy,
    };
  } catch (error) {
    destroy();
    throw error;
  }
}

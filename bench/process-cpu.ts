import { readdirSync, readFileSync } from "node:fs";

/** utime+stime of a process in seconds, from /proc. */
export function cpuSeconds(pid: number) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * CPU-seconds of every PostgreSQL server process on this machine (backends, WAL writer,
 * checkpointer): the database's share of the cost per event, which shares the same two cores.
 * Other databases on the server are idle during a run.
 */
export function postgresCpuSeconds() {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() === "postgres") total += cpuSeconds(Number(entry));
    } catch {
      // the process ended between listing and reading
    }
  }
  return total;
}

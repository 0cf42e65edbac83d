/** The maintenance command's arguments and its report (maintenance-cli.ts), apart from its process so they can be tested. */
import type { MaintenanceSummary } from "./maintenance-run";

const USAGE = "usage: npm run maintenance -- [--as-of <ISO date, e.g. 2027-01-07 or 2027-01-07T12:00:00Z>] [--dry-run] [--json]";

interface MaintenanceArguments {
  asOf?: Date;
  dryRun: boolean;
  json: boolean;
}

export function parseMaintenanceArguments(argv: string[]): MaintenanceArguments | string {
  const parsed: MaintenanceArguments = { dryRun: false, json: false };
  for (let i = 0; i < argv.length; i++) {
    const argument = argv[i];
    if (argument === "--dry-run") parsed.dryRun = true;
    else if (argument === "--json") parsed.json = true;
    else if (argument === "--as-of" || argument.startsWith("--as-of=")) {
      const value = argument === "--as-of" ? argv[++i] : argument.slice("--as-of=".length);
      const time = value ? Date.parse(value) : Number.NaN;
      if (Number.isNaN(time)) return `--as-of needs an ISO date or time, got ${value === undefined ? "nothing" : JSON.stringify(value)}\n${USAGE}`;
      parsed.asOf = new Date(time);
    } else return `unknown argument ${JSON.stringify(argument)}\n${USAGE}`;
  }
  return parsed;
}

export function describeMaintenance(summary: MaintenanceSummary): string {
  const verb = (done: string, would: string) => (summary.dryRun ? would : done);
  const lines = [`maintenance as of ${summary.asOf}${summary.dryRun ? " (dry run: nothing was changed)" : ""}`];
  for (const [table, days] of Object.entries(summary.partitionsCreated)) {
    lines.push(`${table}: ${days.length} week partition(s) ${verb("created", "would be created")}${days.length ? ` (${days[0]} … ${days.at(-1)})` : ""}`);
  }
  const dropped = summary.retention.droppedPartitions;
  lines.push(`${dropped.length} week partition(s) past retention ${verb("dropped", "would be dropped")}`);
  for (const p of dropped) lines.push(`  ${p.partition}: ${p.rows} row(s)${summary.dryRun ? "" : ` in ${p.durationMs} ms`}`);
  const locked = summary.retention.lockedPartitions;
  if (locked.length)
    lines.push(`${locked.length} week partition(s) kept for now: a long transaction held their lock (${locked.join(", ")}); the next run drops them`);
  for (const [table, rows] of Object.entries(summary.retention.edgeRows)) {
    lines.push(`${table}: ${rows} row(s) past their project's retention in weeks kept ${verb("deleted", "would be deleted")}`);
  }
  const rollups = Object.entries(summary.retention.rollupRows).filter(([, n]) => n > 0);
  lines.push(`rollup rows past retention ${verb("deleted", "would be deleted")}: ${rollups.length ? rollups.map(([t, n]) => `${t} ${n}`).join(", ") : "none"}`);
  lines.push(`took ${summary.durationMs} ms`);
  return `${lines.join("\n")}\n`;
}

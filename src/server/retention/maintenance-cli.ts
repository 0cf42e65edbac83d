/**
 * `npm run maintenance -- [--as-of <ISO date>] [--dry-run] [--json]` — the maintenance job by hand,
 * for operators and tests: the days' partitions ahead, then retention. `--as-of` runs it as if it
 * were that moment (what would go, or goes, then); `--dry-run` prints what it would do and changes
 * nothing. Uses DATABASE_URL (or the embedded PGlite folder, which must not be open in a running
 * server) and the same settings as the server.
 */
import { listProjectRetention } from "../data-settings/project-retention";
import { createDatabase } from "../db/client";
import { InvalidEnvironmentError, parseEnv } from "../env";
import { describeMaintenance, parseMaintenanceArguments } from "./maintenance-command";
import { runMaintenance } from "./maintenance-run";

async function main() {
  const args = parseMaintenanceArguments(process.argv.slice(2));
  if (typeof args === "string") {
    process.stderr.write(`${args}\n`);
    process.exit(2);
  }
  const env = parseEnv();
  const database = createDatabase({ databaseUrl: env.DATABASE_URL, pgliteDataDir: env.PGLITE_DATA_DIR });
  try {
    await database.migrate((message, fields) => process.stderr.write(`${message} ${JSON.stringify(fields)}\n`));
    const projects = await listProjectRetention(database.db, env);
    const summary = await runMaintenance(database.db, { asOf: args.asOf, dryRun: args.dryRun, projects, fallbackDays: env.RETENTION_DAYS });
    if (!summary) {
      process.stderr.write("another maintenance run is in progress (see the maintenance_runs table); nothing was done\n");
      process.exitCode = 3;
      return;
    }
    process.stdout.write(args.json ? `${JSON.stringify(summary)}\n` : describeMaintenance(summary));
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof InvalidEnvironmentError ? error.message : error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});

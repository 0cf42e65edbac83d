import type { PGlite } from "@electric-sql/pglite";
import { openPglite } from "../../src/server/db/client";

/**
 * Starting a PGlite from the run's template costs 2–3 s (WebAssembly start, data-directory load);
 * emptying a used one costs a few tens of milliseconds. The database project keeps a worker's
 * modules across suites (`isolate: false`), so a suite's PGlite is one an earlier suite of the same
 * worker closed, emptied back to the template's state: every table truncated, identities
 * restarted, prepared statements and session settings dropped. The migrations' own bookkeeping
 * (schema `drizzle`) is kept, as in the template.
 */
const idle: PGlite[] = [];

/**
 * A PGlite for one suite. Its `close()` empties the database and hands it to the next suite; after
 * that this handle refuses every call, as a closed PGlite does, so a straggler of a finished suite
 * fails instead of writing into the next one's database.
 */
export function leasePglite(template: Blob | undefined): PGlite {
  const real = idle.pop() ?? openPglite("memory://", template);
  let released = false;
  const release = async () => {
    if (released) return;
    released = true;
    await emptyDatabase(real);
    idle.push(real);
  };
  return new Proxy(real, {
    get(target, property) {
      if (property === "close") return release;
      if (property === "closed") return released || target.closed;
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      // PGlite keeps its state in private fields, which only the real object can reach.
      return released ? () => Promise.reject(new Error("PGlite is closed")) : value.bind(target);
    },
  });
}

async function emptyDatabase(client: PGlite) {
  const { rows } = await client.query<{ tables: string | null }>(
    "select string_agg(format('%I.%I', schemaname, tablename), ', ') as tables from pg_tables where schemaname = 'public'",
  );
  const truncate = rows[0]?.tables ? `truncate ${rows[0].tables} restart identity cascade;` : "";
  await client.exec(`deallocate all; ${truncate} reset all;`);
}

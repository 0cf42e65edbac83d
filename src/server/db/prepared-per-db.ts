import type { Db } from "./client";

/**
 * A query built once per database handle and run with placeholders since. drizzle builds a
 * select's SQL text on every call (40–85 µs each on this project's 2-core machine), and the reads
 * every request makes — the membership, the project — paid that each time. A transaction is a
 * handle of its own, so a query used in one is built for it and forgotten with it.
 */
export function preparedPerDb<Query>(build: (db: Db) => Query): (db: Db) => Query {
  const built = new WeakMap<Db, Query>();
  return (db) => {
    let query = built.get(db);
    if (query === undefined) {
      query = build(db);
      built.set(db, query);
    }
    return query;
  };
}

import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { TEST_DATABASE_URL } from "./test-database";

/**
 * New, empty PostgreSQL databases (no template, no migrations) on DATABASE_URL's server: what a
 * first rollout of replicas meets. `dropAll` removes every one this set created.
 */
export function emptyDatabases() {
  const created: string[] = [];
  const admin = () => postgres(TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
  return {
    async create(): Promise<string> {
      const name = `faultline_test_${randomBytes(6).toString("hex")}`;
      const sql = admin();
      await sql.unsafe(`create database ${name}`);
      await sql.end();
      created.push(name);
      const url = new URL(TEST_DATABASE_URL!);
      url.pathname = `/${name}`;
      return url.toString();
    },
    async dropAll(): Promise<void> {
      if (created.length === 0) return;
      const sql = admin();
      for (const name of created.splice(0)) await sql.unsafe(`drop database if exists ${name} with (force)`);
      await sql.end();
    },
  };
}

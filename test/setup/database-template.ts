import { randomBytes } from "node:crypto";
import { rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { createDatabase } from "../../src/server/db/client";

/**
 * Migrates one database per test run, before any suite starts; every suite's database is a copy
 * of it (test-database.ts): a PGlite data-directory tarball loaded into memory, or a PostgreSQL
 * database created `TEMPLATE` it. Replaying the migrations in each of ~110 suites cost 2–10 s
 * apiece.
 */
export type DatabaseTemplate = { kind: "pglite"; file: string } | { kind: "postgres"; name: string };

declare module "vitest" {
  export interface ProvidedContext {
    databaseTemplate: DatabaseTemplate;
  }
}

interface Shared {
  template: Promise<DatabaseTemplate>;
  users: number;
}

// Several projects (database, browser, process) list this setup and vitest may load it once per
// project; the run's one template lives on the main process's global object.
const registry = globalThis as typeof globalThis & { faultlineDatabaseTemplate?: Shared };

export default async function setup(project: TestProject) {
  registry.faultlineDatabaseTemplate ??= { template: createTemplate(process.env.DATABASE_URL), users: 0 };
  const shared = registry.faultlineDatabaseTemplate;
  shared.users += 1;
  project.provide("databaseTemplate", await shared.template);
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    registry.faultlineDatabaseTemplate = undefined;
    await dropTemplate(await shared.template, process.env.DATABASE_URL);
  };
}

async function createTemplate(databaseUrl: string | undefined): Promise<DatabaseTemplate> {
  const suffix = `${process.pid}_${randomBytes(4).toString("hex")}`;
  if (!databaseUrl) {
    const database = createDatabase({ pgliteDataDir: "memory://" });
    await database.migrate();
    const file = path.join(tmpdir(), `faultline-test-template-${suffix}.tar`);
    await writeFile(file, Buffer.from(await (await database.dumpDataDir!()).arrayBuffer()));
    await database.close();
    return { kind: "pglite", file };
  }
  const name = `faultline_template_${suffix}`;
  const admin = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  const database = createDatabase({ databaseUrl: url.toString(), pgliteDataDir: "", maxConnections: 1 });
  await database.migrate();
  // CREATE DATABASE … TEMPLATE refuses while anyone is connected to the template.
  await database.close();
  return { kind: "postgres", name };
}

async function dropTemplate(template: DatabaseTemplate, databaseUrl: string | undefined) {
  if (template.kind === "pglite") return rm(template.file, { force: true });
  const admin = postgres(databaseUrl!, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${template.name} with (force)`);
  await admin.end();
}

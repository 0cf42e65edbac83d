import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executeRows } from "../../db/execute";
import { issues } from "../../db/schema/index";
import { computeGrouping } from "../../grouping/fingerprint.v1";
import { normalizeSentryEvent } from "../normalize/event.normalizer";
import { commitBatch } from "./batch-commit";
import { sqlStateOf } from "./database-errors";
import { prepareOccurrence } from "./prepared-occurrence";
import { createTestDatabase, type TestDatabase } from "../../../../test/helpers/test-database";
import { seedProject } from "../../../../test/helpers/seed";

/**
 * The batch statement upserts issues ON CONFLICT (id); an upsert settles a race only on that
 * arbiter. When concurrent batches insert or update one issue, the loser may take the
 * speculative-insert path, and an immediate unique index on (project_id, fingerprint) would fail
 * its whole batch with 23505 (seen in CI: a valid event refused). Migration 0010 makes that index
 * deferrable, checked at the end of the statement. The race itself is too rare to provoke on
 * demand, so this pins down what rules it out, and that the rule it enforces still holds.
 */
describe("the issues upsert under concurrent batches", () => {
  let database: TestDatabase;
  let project: Awaited<ReturnType<typeof seedProject>>;
  beforeAll(async () => {
    database = await createTestDatabase();
    project = await seedProject(database.db, "issue-upsert-race");
  });
  afterAll(() => database.destroy());

  it("has no immediate unique index on issues besides the upsert's arbiter, the primary key", async () => {
    const rows = await executeRows<{ name: string; immediate: boolean }>(
      database.db,
      sql`select indexrelid::regclass::text as name, indimmediate as immediate from pg_index
          where indrelid = 'issues'::regclass and indisunique order by 1`,
    );
    expect(rows).toEqual([
      { name: "issues_pkey", immediate: true },
      { name: "issues_project_fingerprint_idx", immediate: false },
    ]);
  });

  it("still refuses a second issue with a fingerprint the project already has", async () => {
    const occurrence = normalizeSentryEvent({ event_id: "c".repeat(32), message: "upsert race fingerprint", level: "error" });
    const event = prepareOccurrence({
      organizationId: project.organizationId,
      projectId: project.projectId,
      occurrence,
      grouping: computeGrouping(occurrence),
      receivedAt: new Date(),
    });
    await commitBatch(database, [event], []);
    const [existing] = await database.db.select().from(issues).where(eq(issues.id, event.issueId));
    const duplicate = database.db.insert(issues).values({ ...existing, id: crypto.randomUUID() });
    await expect(duplicate.then(() => null, sqlStateOf)).resolves.toBe("23505");
  });
});

import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { occurrences } from "../db/schema/index";
import { computeGrouping } from "../grouping/fingerprint.v1";
import { commitBatch } from "./batch-commit";
import { normalizeSentryEvent } from "./event.normalizer";
import type { PendingOccurrence } from "./pending-occurrence";
import { createTestDatabase, type TestDatabase } from "../../../test/helpers/test-database";
import { seedProject } from "../../../test/helpers/seed";

/**
 * The stored documents travel beside the rows and are matched to them by position: every
 * occurrence must get its own event's document, whatever the batch holds.
 */
describe("commitBatch", () => {
  let database: TestDatabase;
  let project: Awaited<ReturnType<typeof seedProject>>;
  beforeAll(async () => {
    database = await createTestDatabase();
    project = await seedProject(database.db, "batch-commit");
  });
  afterAll(() => database.destroy());

  const pending = (eventId: string, message: string): PendingOccurrence => {
    const occurrence = normalizeSentryEvent({ event_id: eventId, message, level: "error", tags: { note: message } });
    return { organizationId: project.organizationId, projectId: project.projectId, occurrence, grouping: computeGrouping(occurrence), receivedAt: new Date() };
  };
  const storedMessages = async () => {
    const rows = await database.db.select({ eventId: occurrences.eventId, data: occurrences.data }).from(occurrences).where(eq(occurrences.projectId, project.projectId));
    return Object.fromEntries(rows.map((row) => [row.eventId, (row.data as { message: string; eventId: string })]));
  };

  it("stores each event's own document, separators and escapes included", async () => {
    const awkward = ["plain", 'quotes " and \\ backslashes', "a record separator \u001e inside", "control \u0001\u001f and emoji 🚨", "ünïcödé"];
    const batch = awkward.map((message, i) => pending(`${"a".repeat(31)}${i}`, message));
    await commitBatch(database, batch, []);
    const stored = await storedMessages();
    awkward.forEach((message, i) => {
      const eventId = `${"a".repeat(31)}${i}`;
      expect(stored[eventId]).toMatchObject({ eventId, message });
    });
  });

  it("keeps documents aligned when the batch repeats an event or holds one already stored", async () => {
    const batch = [
      pending(`${"b".repeat(31)}0`, "first b0"),
      pending(`${"a".repeat(31)}0`, "redelivered a0 (already stored)"),
      pending(`${"b".repeat(31)}1`, "b1"),
      pending(`${"b".repeat(31)}0`, "second b0 in the same batch"),
      pending(`${"b".repeat(31)}2`, "b2"),
    ];
    await commitBatch(database, batch, []);
    const stored = await storedMessages();
    expect(stored[`${"a".repeat(31)}0`].message).toBe("plain");
    expect(stored[`${"b".repeat(31)}0`].message).toBe("second b0 in the same batch");
    expect(stored[`${"b".repeat(31)}1`].message).toBe("b1");
    expect(stored[`${"b".repeat(31)}2`].message).toBe("b2");
    expect(Object.keys(stored)).toHaveLength(8);
  });
});

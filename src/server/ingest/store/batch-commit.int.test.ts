import { eq, sql } from "drizzle-orm";
import { executeRows } from "../../db/execute";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestOutcomes, issueTagCounts, issues, occurrences } from "../../db/schema/index";
import { computeGrouping } from "../../grouping/fingerprint.v1";
import { addOutcomes, addTagCounts, commitBatch } from "./batch-commit";
import type { PendingOutcome } from "./pending-occurrence";
import { normalizeSentryEvent } from "../normalize/event.normalizer";
import { withoutNulEscapes } from "./json-escapes";
import { prepareOccurrence, type PreparedOccurrence } from "./prepared-occurrence";
import { createTestDatabase, type TestDatabase } from "../../../../test/helpers/test-database";
import { seedProject } from "../../../../test/helpers/seed";
import { preparedMessageEvent } from "../../../../test/helpers/message-event";

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

  const pending = (eventId: string, message: string, tags: Record<string, string> = { note: message }): PreparedOccurrence =>
    preparedMessageEvent(project, message, { event_id: eventId, tags });
  const storedMessages = async () => {
    const rows = await database.db
      .select({ eventId: occurrences.eventId, data: occurrences.data })
      .from(occurrences)
      .where(eq(occurrences.projectId, project.projectId));
    return Object.fromEntries(rows.map((row) => [row.eventId, row.data as { message: string; eventId: string }]));
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

  it("answers the tags of the events it stored, not of duplicates, for the tag counts", async () => {
    const batch = [
      pending(`${"c".repeat(31)}0`, "c0", { plan: "free" }),
      pending(`${"a".repeat(31)}1`, "a1 again (already stored)", { plan: "gold" }),
      pending(`${"c".repeat(31)}1`, "c1", { plan: "pro" }),
    ];
    const committed = await commitBatch(database, batch, []);
    expect(committed.map((event) => event.tags.plan)).toEqual(["free", "pro"]);
    expect(committed[0]).toMatchObject({ organizationId: project.organizationId, projectId: project.projectId, tags: { plan: "free", level: "error" } });

    await addTagCounts(database, [
      { organization_id: project.organizationId, project_id: project.projectId, issue_id: committed[0].issueId, key: "plan", value: "free", count: 2 },
      // An issue deleted since its events were stored is skipped, not a failure of the whole flush.
      { organization_id: project.organizationId, project_id: project.projectId, issue_id: crypto.randomUUID(), key: "plan", value: "gone", count: 1 },
    ]);
    await addTagCounts(database, [
      { organization_id: project.organizationId, project_id: project.projectId, issue_id: committed[0].issueId, key: "plan", value: "free", count: 1 },
    ]);
    const rows = await database.db.select().from(issueTagCounts).where(eq(issueTagCounts.projectId, project.projectId));
    expect(rows.filter((row) => row.key === "plan").map((row) => [row.value, row.count])).toEqual([["free", 3]]);
  });

  it("stores an event whose message and tags hold U+0000 instead of failing its whole batch", async () => {
    const batch = [pending(`${"d".repeat(31)}0`, "nul \u0000 inside", { "k\u0000": "v\u0000" }), pending(`${"d".repeat(31)}1`, "a neighbour")];
    const committed = await commitBatch(database, batch, []);
    expect(committed).toHaveLength(2);
    await addTagCounts(database, [
      { organization_id: project.organizationId, project_id: project.projectId, issue_id: committed[0].issueId, key: "k\u0000", value: "v\u0000", count: 1 },
    ]);
    const [row] = await database.db
      .select({ message: occurrences.message, data: occurrences.data })
      .from(occurrences)
      .where(eq(occurrences.eventId, `${"d".repeat(31)}0`));
    expect(row.message).toBe("nul \ufffd inside");
    // The document keeps the event as sent.
    expect((row.data as { message: string }).message).toBe("nul \u0000 inside");
    const tags = await database.db.select().from(issueTagCounts).where(eq(issueTagCounts.issueId, committed[0].issueId));
    expect(tags.find((tag) => tag.key === "k\ufffd")?.value).toBe("v\ufffd");
  });
  it("stores documents beyond Latin-1 as sent, beside one-byte ones of the same batch", async () => {
    const messages = ["plain 0", "ellipsis … 1", "Müller 2", "支付失败 🚨 3", "plain 4"];
    await commitBatch(
      database,
      messages.map((message, i) => pending(`${"9".repeat(31)}${i}`, message)),
      [],
    );
    const rows = await executeRows<{ event_id: string; data: string; message: string }>(
      database.db,
      sql`select event_id, data, message from occurrences where project_id = ${project.projectId}::uuid and event_id like '999%' order by event_id`,
    );
    expect(rows.map((row) => row.message)).toEqual(messages);
    // The stored text holds the characters themselves, not escapes.
    expect(rows.map((row) => (JSON.parse(row.data) as { message: string }).message)).toEqual(messages);
    expect(rows[3].data).toContain("支付失败 🚨");
    expect(rows[1].data).toContain("…");
  });
});

// Battery: out-of-range values that are valid JSON (a lone surrogate is valid JSON; PostgreSQL refuses it).
describe("commitBatch with out-of-range values that are valid JSON", () => {
  let database: TestDatabase;
  let project: Awaited<ReturnType<typeof seedProject>>;
  beforeAll(async () => {
    database = await createTestDatabase();
    project = await seedProject(database.db, "lone-surrogates");
  });
  afterAll(() => database.destroy());

  it("stores an event with lone surrogates in its message, exception, tags and document, as U+FFFD", async () => {
    const occurrence = normalizeSentryEvent({
      event_id: "e".repeat(32),
      level: "error",
      tags: { "k\udc00": "v\ud800" },
      exception: { values: [{ type: "Lone\ud800Error", value: "half a pair \udfff here 🚨" }] },
      extra: { note: "x\ud83d" },
    });
    const prepared = prepareOccurrence({
      organizationId: project.organizationId,
      projectId: project.projectId,
      occurrence,
      grouping: computeGrouping(occurrence),
      receivedAt: new Date(),
    });
    const committed = await commitBatch(database, [prepared], []);
    expect(committed[0].tags).toMatchObject({ "k\ufffd": "v\ufffd" });
    await addTagCounts(database, [
      { organization_id: project.organizationId, project_id: project.projectId, issue_id: committed[0].issueId, key: "k\udc00", value: "v\ud800", count: 1 },
    ]);
    const [row] = await database.db
      .select({ message: occurrences.message, name: occurrences.name, data: occurrences.data })
      .from(occurrences)
      .where(eq(occurrences.eventId, "e".repeat(32)));
    expect(row.message).toBe("half a pair \ufffd here 🚨");
    expect(row.name).toBe("Lone\ufffdError");
    const document = row.data as { tags: Record<string, string>; extra: { note: string } };
    expect(document.tags).toEqual({ "k\ufffd": "v\ufffd" });
    expect(document.extra.note).toBe("x\ufffd");
    const [issue] = await database.db.select().from(issues).where(eq(issues.id, committed[0].issueId));
    expect(issue.title).toBe("Lone\ufffdError: half a pair \ufffd here 🚨");
    const tags = await database.db.select().from(issueTagCounts).where(eq(issueTagCounts.issueId, committed[0].issueId));
    expect(tags.find((tag) => tag.key === "k\ufffd")?.value).toBe("v\ufffd");
  });
});

describe("addOutcomes", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.destroy());

  it("merges reasons that differ only by unstorable text and skips projects deleted meanwhile", async () => {
    const project = await seedProject(database.db, "outcomes");
    const at = new Date();
    const outcome = (reason: string, projectId = project.projectId): PendingOutcome => ({
      organizationId: project.organizationId,
      projectId,
      outcome: "client_discard",
      reason,
      category: "error",
      quantity: 1,
      at,
    });
    // A client report's reason cut in the middle of a pair, twice, and once with U+0000 instead.
    await addOutcomes(database, [outcome("backoff \ud83d"), outcome("backoff \ud83d"), outcome("backoff \u0000"), outcome("gone", crypto.randomUUID())]);
    const rows = await database.db.select().from(ingestOutcomes).where(eq(ingestOutcomes.projectId, project.projectId));
    expect(rows.map((row) => [row.reason, row.count])).toEqual([["backoff \ufffd", 3]]);
  });
});

describe("withoutNulEscapes", () => {
  it("replaces JSON's \\u0000 escape and leaves an escaped backslash followed by u0000 alone", () => {
    for (const value of ["\u0000", "a\u0000b", "\\\u0000", "\\u0000", "\\\\u0000", "plain"]) {
      const cleaned = JSON.parse(withoutNulEscapes(JSON.stringify({ value })));
      expect(cleaned.value).toBe(value.replaceAll("\u0000", "\ufffd"));
    }
  });
});

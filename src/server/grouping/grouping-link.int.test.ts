import { readFileSync } from "node:fs";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../test/helpers/test-database";
import { seedProject } from "../../../test/helpers/seed";
import { issueFingerprints, issueTagCounts, issues, occurrences } from "../db/schema/index";
import { addTagCounts, commitBatch } from "../ingest/store/batch-commit";
import { normalizeSentryEvent } from "../ingest/normalize/event.normalizer";
import { prepareOccurrence } from "../ingest/store/prepared-occurrence";
import { computeGrouping } from "./fingerprint.v1";
import { groupForIngest } from "./ingest-grouping";
import { ProjectKeyCache } from "../ingest/project-key.cache";

/** The switch from v1 to v2 at ingest: an issue v1 made keeps receiving its events. */
describe("grouping v2 at ingest", () => {
  let database: TestDatabase;
  let project: Awaited<ReturnType<typeof seedProject>>;
  beforeAll(async () => {
    database = await createTestDatabase();
    project = await seedProject(database.db, "grouping-link");
  });
  afterAll(() => database.destroy());

  const frames = (caller: string) => [
    { function: caller, module: "routes", in_app: true, context_line: "return parseAmount(body);" },
    { function: "parseAmount", module: "money", in_app: true, context_line: "const text = input.amount.trim();" },
  ];
  const event = (eventId: string, caller: string) =>
    normalizeSentryEvent({
      event_id: eventId,
      level: "error",
      tags: { caller },
      exception: { values: [{ type: "TypeError", value: "Cannot read properties of undefined (reading 'trim')", stacktrace: { frames: frames(caller) } }] },
    });
  const store = (occurrence: ReturnType<typeof event>, grouping = groupForIngest(occurrence)) =>
    commitBatch(
      database,
      [prepareOccurrence({ organizationId: project.organizationId, projectId: project.projectId, occurrence, grouping, receivedAt: new Date() })],
      [],
    );
  const issueOf = async (eventId: string) =>
    (
      await database.db
        .select({ issueId: occurrences.issueId })
        .from(occurrences)
        .where(and(eq(occurrences.projectId, project.projectId), eq(occurrences.eventId, eventId)))
    )[0].issueId;

  it("links the v2 fingerprint of an event to the issue v1 made for it, and records the link", async () => {
    const before = event("a".repeat(32), "checkoutRoute");
    await store(before, computeGrouping(before)); // stored before the switch
    const v1Issue = await issueOf("a".repeat(32));

    const after = event("b".repeat(32), "checkoutRoute");
    const committed = await store(after);
    expect(await issueOf("b".repeat(32))).toBe(v1Issue);
    // The tag counts follow the event to that issue, not to the one its v2 fingerprint would name.
    expect(committed[0].issueId).toBe(v1Issue);
    await addTagCounts(database, [
      {
        organization_id: project.organizationId,
        project_id: project.projectId,
        issue_id: committed[0].issueId,
        key: "caller",
        value: "checkoutRoute",
        count: 1,
      },
    ]);
    expect(await database.db.select().from(issueTagCounts).where(eq(issueTagCounts.issueId, v1Issue))).toHaveLength(1);

    const [link] = await database.db
      .select()
      .from(issueFingerprints)
      .where(eq(issueFingerprints.fingerprint, groupForIngest(after).fingerprint));
    expect(link).toMatchObject({ issueId: v1Issue, groupingVersion: 2, crashFrame: "money|parseAmount", exceptionType: "TypeError" });
    const [issue] = await database.db.select().from(issues).where(eq(issues.id, v1Issue));
    expect(issue).toMatchObject({ groupingVersion: 1, eventCount: 2 });
  });

  it("sends another caller of the same defect there too (v1 would have opened a new issue)", async () => {
    const other = event("c".repeat(32), "refundRoute");
    expect(computeGrouping(other).fingerprint).not.toBe(computeGrouping(event("d".repeat(32), "checkoutRoute")).fingerprint);
    await store(other);
    expect(await issueOf("c".repeat(32))).toBe(await issueOf("a".repeat(32)));
  });

  it("after migration 0008, an issue made before v2 (no fingerprint row) receives its events", async () => {
    const v1Event = event("1".repeat(32), "exportRoute");
    v1Event.exceptions[0].type = "RangeError";
    await store(v1Event, computeGrouping(v1Event));
    const v1Issue = await issueOf("1".repeat(32));
    // As an issue stored before grouping v2 existed: it has no issue_fingerprints row.
    await database.db.delete(issueFingerprints).where(eq(issueFingerprints.issueId, v1Issue));
    const migration = readFileSync(new URL("../../../drizzle/0008_grouping_links.sql", import.meta.url), "utf8");
    const backfill = migration.split("--> statement-breakpoint").find((statement) => statement.includes("INSERT INTO"));
    await database.db.execute(sql.raw(backfill!));

    const later = event("2".repeat(32), "exportRoute");
    later.exceptions[0].type = "RangeError";
    await store(later);
    expect(await issueOf("2".repeat(32))).toBe(v1Issue);
    const rows = await database.db.select().from(issueFingerprints).where(eq(issueFingerprints.issueId, v1Issue));
    expect(rows.map((row) => row.groupingVersion).sort()).toEqual([1, 2]);
  });

  it("looks v1 fingerprints up only in projects that have v1 issues", async () => {
    const keys = new ProjectKeyCache(database.db);
    expect(await keys.lookup(project.publicKey)).toMatchObject({ legacyGrouping: true });
    const fresh = await seedProject(database.db, "grouping-v2-only");
    expect(await keys.lookup(fresh.publicKey)).toMatchObject({ legacyGrouping: false });
    const occurrence = event("3".repeat(32), "checkoutRoute");
    expect(groupForIngest(occurrence, { legacy: false }).legacyFingerprint).toBeNull();
    expect(groupForIngest(occurrence).legacyFingerprint).toBe(computeGrouping(occurrence).fingerprint);
  });

  it("opens a v2 issue for a defect no issue knows, and stores the event's fingerprint", async () => {
    const fresh = normalizeSentryEvent({ event_id: "e".repeat(32), level: "error", message: "Invoice INV-2024-00359 failed" });
    await store(fresh);
    const issueId = await issueOf("e".repeat(32));
    const [issue] = await database.db.select().from(issues).where(eq(issues.id, issueId));
    expect(issue).toMatchObject({ groupingVersion: 2, fingerprint: groupForIngest(fresh).fingerprint, eventCount: 1 });
    const [row] = await database.db
      .select({ fingerprint: occurrences.fingerprint })
      .from(occurrences)
      .where(eq(occurrences.eventId, "e".repeat(32)));
    expect(row.fingerprint).toBe(groupForIngest(fresh).fingerprint);
    await store(normalizeSentryEvent({ event_id: "f".repeat(32), level: "error", message: "Invoice INV-2025-10001 failed" }));
    expect(await issueOf("f".repeat(32))).toBe(issueId);
  });
});

import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ISSUE_STATUSES, type IssueStatus } from "../../shared/triage.inputs";
import { issueActivities, issues } from "../db/schema/index";
import { commitBatch } from "../ingest/store/batch-commit";
import { afterNewEvent, type IssueStatusFields } from "./issue-state";
import { selectIssueActivity } from "./issue-detail.queries";
import { createTestDatabase, type TestDatabase } from "../../../test/helpers/test-database";
import { seedProject } from "../../../test/helpers/seed";
import { preparedMessageEvent } from "../../../test/helpers/message-event";

/**
 * Issue 14 item 18: a regression (a new exception reopening a RESOLVED issue) is recorded in the
 * issue's activity by the ingest batch statement itself — exactly once per reopening, whatever the
 * batch holds and however many batches race for the same issue.
 */
describe("regressions in the issue's activity", () => {
  let database: TestDatabase;
  let project: Awaited<ReturnType<typeof seedProject>>;
  beforeAll(async () => {
    database = await createTestDatabase();
    project = await seedProject(database.db, "regression-activity");
  });
  afterAll(() => database.destroy());

  const caseName = (i: number) => String.fromCharCode(97 + i).repeat(3);
  /** One batch statement holding `count` events of the issue named `issueName`. */
  const ingest = async (issueName: string, count = 1) => {
    const batch = Array.from({ length: count }, () => preparedMessageEvent(project, issueName));
    await commitBatch(database, batch, []);
    return batch[0].issueId;
  };
  const setState = (issueId: string, state: IssueStatusFields) => database.db.update(issues).set(state).where(eq(issues.id, issueId));
  const regressionsOf = (issueId: string) =>
    database.db
      .select()
      .from(issueActivities)
      .where(and(eq(issueActivities.issueId, issueId), eq(issueActivities.kind, "regression")));

  it("records one activity row exactly when afterNewEvent reopens the issue, from every state", async () => {
    const resolvedAt = new Date("2026-11-20T10:00:00.000Z");
    const states: IssueStatusFields[] = ISSUE_STATUSES.flatMap((status: IssueStatus) =>
      [false, true].map((isRegression) => ({ status, isRegression, resolvedAt: status === "RESOLVED" ? resolvedAt : null })),
    );
    for (const [i, start] of states.entries()) {
      const name = `regression activity case ${caseName(i)}`;
      const issueId = await ingest(name);
      expect(await regressionsOf(issueId), "a new issue is not a regression").toEqual([]);
      await setState(issueId, start);
      await ingest(name);
      const rows = await regressionsOf(issueId);
      const label = JSON.stringify(start);
      if (!afterNewEvent(start).regressed) {
        expect(rows, label).toEqual([]);
        continue;
      }
      expect(
        rows.map((row) => ({ organizationId: row.organizationId, projectId: row.projectId, actor: row.actorUserId, from: row.fromValue, to: row.toValue })),
        label,
      ).toEqual([{ organizationId: project.organizationId, projectId: project.projectId, actor: null, from: "RESOLVED", to: "OPEN" }]);
    }
  });

  it("records a batch of many events of one resolved issue once, and a later resolve-and-regress again", async () => {
    const issueId = await ingest("regression activity batch");
    await setState(issueId, { status: "RESOLVED", isRegression: false, resolvedAt: new Date() });
    await ingest("regression activity batch", 5);
    expect(await regressionsOf(issueId)).toHaveLength(1);
    await ingest("regression activity batch", 2);
    expect(await regressionsOf(issueId), "an OPEN issue seeing more events is no new regression").toHaveLength(1);
    await setState(issueId, { status: "RESOLVED", isRegression: false, resolvedAt: new Date() });
    await ingest("regression activity batch");
    expect(await regressionsOf(issueId)).toHaveLength(2);
    // The detail's activity query reads it like a user's change, without an actor.
    const activity = await selectIssueActivity(database.db, project.organizationId, project.projectId, issueId);
    expect(activity.map((row) => [row.kind, row.from, row.to, row.actorId])).toEqual([
      ["regression", "RESOLVED", "OPEN", null],
      ["regression", "RESOLVED", "OPEN", null],
    ]);
  });

  it("records one row when concurrent batches reopen the same issue", async () => {
    for (let round = 0; round < 5; round += 1) {
      const name = `regression activity race ${caseName(round)}`;
      const issueId = await ingest(name);
      await setState(issueId, { status: "RESOLVED", isRegression: false, resolvedAt: new Date() });
      await Promise.all(Array.from({ length: 4 }, () => ingest(name, 2)));
      const [row] = await database.db.select({ status: issues.status, eventCount: issues.eventCount }).from(issues).where(eq(issues.id, issueId));
      expect(row).toEqual({ status: "OPEN", eventCount: 9 });
      expect(await regressionsOf(issueId), `round ${round}`).toHaveLength(1);
    }
  });
});

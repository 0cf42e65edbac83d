import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ISSUE_STATUSES, type IssueStatus } from "../../shared/triage.inputs";
import { issueActivities, issues } from "../db/schema/index";
import { commitBatch } from "../ingest/store/batch-commit";
import { afterNewEvent, canTransition, INITIAL_STATUS, severityForLevel, statusChange, type IssueStatusFields } from "./issue-state";
import { updateIssueStatuses } from "./issue-triage.queries";
import { createTestDatabase, type TestDatabase } from "../../../test/helpers/test-database";
import { seedProject } from "../../../test/helpers/seed";
import { preparedMessageEvent } from "../../../test/helpers/message-event";

/**
 * Ingest's issue upsert is SQL and triage is drizzle; both must do what issue-state.ts says, from
 * every state an issue can be in. A rule changed in one place and not the other fails here.
 */
describe("issue state machine against the real statements", () => {
  let database: TestDatabase;
  let project: Awaited<ReturnType<typeof seedProject>>;
  beforeAll(async () => {
    database = await createTestDatabase();
    project = await seedProject(database.db, "issue-state");
  });
  afterAll(() => database.destroy());

  const resolvedAt = new Date("2026-11-20T10:00:00.000Z");
  const startStates: IssueStatusFields[] = ISSUE_STATUSES.flatMap((status) =>
    [false, true].flatMap((isRegression) => [null, resolvedAt].map((at) => ({ status, isRegression, resolvedAt: at }))),
  );

  /** Grouping masks digits in messages, so cases are named by letters. */
  const caseName = (i: number) => String.fromCharCode(97 + i).repeat(3);
  /** Commits one event through the real batch statement; its message names the issue. */
  const ingest = async (issueName: string) => {
    const prepared = preparedMessageEvent(project, issueName);
    await commitBatch(database, [prepared], []);
    return prepared.issueId;
  };
  const stateOf = async (issueId: string): Promise<IssueStatusFields> => {
    const [row] = await database.db
      .select({ status: issues.status, isRegression: issues.isRegression, resolvedAt: issues.resolvedAt })
      .from(issues)
      .where(eq(issues.id, issueId));
    return { ...row, status: row.status as IssueStatus };
  };
  const newIssueIn = async (name: string, state: IssueStatusFields) => {
    const issueId = await ingest(name);
    const [created] = await database.db.select({ eventCount: issues.eventCount, severity: issues.severity }).from(issues).where(eq(issues.id, issueId));
    expect(created, `${name} must make a new issue`).toEqual({ eventCount: 1, severity: severityForLevel("error") });
    expect(await stateOf(issueId)).toEqual({ status: INITIAL_STATUS, isRegression: false, resolvedAt: null });
    await database.db.update(issues).set(state).where(eq(issues.id, issueId));
    expect(await stateOf(issueId)).toEqual(state);
    return issueId;
  };

  it("ingest's upsert applies afterNewEvent to an issue in every state", async () => {
    for (const [i, start] of startStates.entries()) {
      const name = `regression rule case ${caseName(i)}`;
      const issueId = await newIssueIn(name, start);
      await ingest(name);
      const { regressed: _, ...expected } = afterNewEvent(start);
      expect(await stateOf(issueId), JSON.stringify(start)).toEqual(expected);
    }
  });

  it("triage applies canTransition and statusChange from every state to every status, recording real changes only", async () => {
    for (const [i, start] of startStates.entries()) {
      for (const to of ISSUE_STATUSES) {
        const issueId = await newIssueIn(`triage case ${caseName(i)} to ${to}`, start);
        const before = Date.now();
        const actor = { organizationId: project.organizationId, projectId: project.projectId, userId: "state-test" };
        const changed = await updateIssueStatuses(database.db, actor, [issueId], to);
        const after = await stateOf(issueId);
        const label = `${JSON.stringify(start)} → ${to}`;
        const activity = await database.db
          .select()
          .from(issueActivities)
          .where(and(eq(issueActivities.issueId, issueId), eq(issueActivities.kind, "status")));
        if (!canTransition(start.status, to)) {
          expect(changed, label).toEqual([]);
          expect(after, label).toEqual(start);
          expect(activity, label).toEqual([]);
          continue;
        }
        expect(changed, label).toEqual([issueId]);
        const { resolvedAt: stamped, resolvedInRelease, resolvedInNextRelease, ...change } = statusChange(to, new Date(before));
        expect({ status: after.status, isRegression: after.isRegression }, label).toEqual({ isRegression: start.isRegression, ...change });
        const [release] = await database.db
          .select({ resolvedInRelease: issues.resolvedInRelease, resolvedInNextRelease: issues.resolvedInNextRelease })
          .from(issues)
          .where(eq(issues.id, issueId));
        expect(release, label).toEqual({ resolvedInRelease, resolvedInNextRelease });
        if (stamped) expect(after.resolvedAt!.getTime(), label).toBeGreaterThanOrEqual(before - 1);
        else expect(after.resolvedAt, label).toBeNull();
        expect(
          activity.map((row) => [row.fromValue, row.toValue]),
          label,
        ).toEqual([[start.status, to]]);
      }
    }
  });
});

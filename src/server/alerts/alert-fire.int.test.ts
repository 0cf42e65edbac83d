import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { executeRows } from "../db/execute";
import { alertActions, alertNotifications, alertRules, issues } from "../db/schema/index";
import { JobQueue } from "../jobs/job-queue";
import { JOBS } from "../jobs/job-registry";
import { createLogger } from "../logger";
import { createTestDatabase, type TestDatabase } from "../../../test/helpers/test-database";
import { seedProject } from "../../../test/helpers/seed";
import { fireRule, type FireSubject } from "./alert-fire";
import { selectRules } from "./alert-rule.queries";

/**
 * The storm guard over several subjects at once (a batch's new issues): the hourly cap is counted
 * subject by subject inside the one transaction, repeats within the interval are counted and not
 * logged, and the hour's digest is scheduled once.
 */
describe("fireRule for several subjects", () => {
  let database: TestDatabase;
  let jobs: JobQueue;
  let project: Awaited<ReturnType<typeof seedProject>>;
  let ruleId: string;
  let subjects: FireSubject[];

  beforeAll(async () => {
    database = await createTestDatabase();
    // No worker registered: the jobs stay queued, where the test can count them.
    jobs = new JobQueue(JOBS, database.db, createLogger("silent"));
    project = await seedProject(database.db, "storm");
    const [rule] = await database.db
      .insert(alertRules)
      .values({
        organizationId: project.organizationId,
        projectId: project.projectId,
        name: "new issues",
        triggerType: "new_issue",
        trigger: JSON.stringify({ type: "new_issue" }),
        filters: "{}",
        maxPerHour: 2,
      })
      .returning({ id: alertRules.id });
    ruleId = rule.id;
    await database.db.insert(alertActions).values({
      organizationId: project.organizationId,
      projectId: project.projectId,
      ruleId,
      type: "email",
      recipients: JSON.stringify({ to: "members" }),
    });
    const now = new Date();
    const created = await database.db
      .insert(issues)
      .values(
        [1, 2, 3, 4].map((n) => ({
          organizationId: project.organizationId,
          projectId: project.projectId,
          fingerprint: `storm-${n}`,
          groupingVersion: 2,
          title: `Error ${n}`,
          level: "error",
          severity: "HIGH",
          firstSeen: now,
          lastSeen: now,
        })),
      )
      .returning({ id: issues.id, title: issues.title });
    subjects = created.map((issue) => ({ id: issue.id, issueId: issue.id, issueTitle: issue.title, reason: "new_issue" }));
  });
  afterAll(async () => {
    await jobs.close();
    await database.destroy();
  });

  const rule = async () => (await selectRules(database.db, project.organizationId, project.projectId, ruleId))[0];
  const hour = async () =>
    (
      await executeRows<{ sent: number; suppressed: number }>(database.db, sql`select sent, suppressed from alert_rule_hours where rule_id = ${ruleId}::uuid`)
    )[0];
  const notifications = (status: string) =>
    database.db
      .select({ issueId: alertNotifications.issueId })
      .from(alertNotifications)
      .where(and(eq(alertNotifications.ruleId, ruleId), eq(alertNotifications.status, status)));
  const queued = async (name: string) =>
    Number((await executeRows<{ n: number }>(database.db, sql`select count(*)::int as n from jobs where name = ${name}`))[0].n);

  it("sends up to the hourly cap, logs the rest as suppressed and schedules one digest", async () => {
    const outcome = await fireRule(database.db, jobs, await rule(), [...subjects, subjects[0]]);
    expect(outcome.notificationIds).toHaveLength(2);
    expect(outcome).toMatchObject({ suppressed: 2, repeats: 0 });
    expect((await notifications("pending")).map((row) => row.issueId)).toEqual(expect.arrayContaining([subjects[0].id, subjects[1].id]));
    expect((await notifications("suppressed")).map((row) => row.issueId).sort()).toEqual([subjects[2].id, subjects[3].id].sort());
    expect(await hour()).toEqual({ sent: 2, suppressed: 2 });
    expect(await queued("alert.deliver")).toBe(2);
    expect(await queued("alert.digest")).toBe(1);
  });

  it("counts the same subjects again within the interval as repeats, logging and sending nothing", async () => {
    const outcome = await fireRule(database.db, jobs, await rule(), subjects);
    expect(outcome).toEqual({ notificationIds: [], suppressed: 0, repeats: 4, digestDueAt: null });
    expect(await notifications("pending")).toHaveLength(2);
    expect(await notifications("suppressed")).toHaveLength(2);
    expect(await hour()).toEqual({ sent: 2, suppressed: 6 });
    expect(await queued("alert.deliver")).toBe(2);
    expect(await queued("alert.digest")).toBe(1);
  });
});

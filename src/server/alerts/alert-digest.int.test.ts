import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { BURST_INDIVIDUAL_ALERTS, BURST_QUIET_MINUTES, DIGEST_DELAY_SECONDS, DIGEST_SPACING_MINUTES } from "../../shared/alert.inputs";
import { executeRows } from "../db/execute";
import { alertActions, alertNotifications, alertRules, issues } from "../db/schema/index";
import { JobQueue } from "../jobs/job-queue";
import { JOBS } from "../jobs/job-registry";
import { createLogger } from "../logger";
import { createTestDatabase, type TestDatabase } from "../../../test/helpers/test-database";
import { seedProject } from "../../../test/helpers/seed";
import { sendDigest } from "./alert-digest";
import { fireRule, type FireSubject } from "./alert-fire";
import { selectRules } from "./alert-rule.queries";

/**
 * The burst and its digest below the jobs (the end-to-end mails are test/alerts/alert-burst.int.test.ts):
 * the burst's pace, regressions apart, the digest's due time, and one digest however many runners
 * race for it (on PostgreSQL the two calls below run on two connections at once).
 */
describe("bursts and their digest", () => {
  let database: TestDatabase;
  let jobs: JobQueue;
  let project: Awaited<ReturnType<typeof seedProject>>;
  let ruleId: string;
  let actionIds: string[];
  let subjects: FireSubject[];

  beforeAll(async () => {
    database = await createTestDatabase();
    // No worker registered: the jobs stay queued, where the test can read them.
    jobs = new JobQueue(JOBS, database.db, createLogger("silent"));
    project = await seedProject(database.db, "burst");
    const [rule] = await database.db
      .insert(alertRules)
      .values({
        organizationId: project.organizationId,
        projectId: project.projectId,
        name: "new issues",
        triggerType: "new_issue",
        trigger: JSON.stringify({ type: "new_issue", includeRegressions: true }),
        filters: "{}",
      })
      .returning({ id: alertRules.id });
    ruleId = rule.id;
    const actions = await database.db
      .insert(alertActions)
      .values(
        [0, 1].map((position) => ({
          organizationId: project.organizationId,
          projectId: project.projectId,
          ruleId,
          position,
          type: "email",
          recipients: JSON.stringify({ to: "members" }),
        })),
      )
      .returning({ id: alertActions.id });
    actionIds = actions.map((action) => action.id);
    const now = new Date();
    const created = await database.db
      .insert(issues)
      .values(
        Array.from({ length: 10 + BURST_INDIVIDUAL_ALERTS }, (_, n) => ({
          organizationId: project.organizationId,
          projectId: project.projectId,
          fingerprint: `burst-${n}`,
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
  const rows = <T>(query: ReturnType<typeof sql>) => executeRows<T>(database.db, query);
  const digests = () =>
    database.db
      .select({ id: alertNotifications.id, actionId: alertNotifications.actionId, suppressedCount: alertNotifications.suppressedCount })
      .from(alertNotifications)
      .where(and(eq(alertNotifications.ruleId, ruleId), eq(alertNotifications.kind, "digest")));
  const digestJobs = () =>
    rows<{ payload: string; due_in_s: number }>(
      sql`select payload, extract(epoch from run_at - now())::float8 as due_in_s from jobs where name = 'alert.digest' and state = 'queued'`,
    );
  const quietPeriodPasses = () => rows(sql`update alert_rule_bursts set last_at = last_at - ${`${BURST_QUIET_MINUTES} minutes`}::interval`);

  it("sends the burst's first few, holds the rest and schedules ONE digest a few seconds ahead; a regression goes out regardless", async () => {
    const first = await fireRule(database.db, jobs, await rule(), subjects.slice(0, 5));
    expect(first.notificationIds).toHaveLength(BURST_INDIVIDUAL_ALERTS * actionIds.length);
    expect(first.suppressed).toBe(5 - BURST_INDIVIDUAL_ALERTS);
    const [job] = await digestJobs();
    expect(JSON.parse(job.payload)).toEqual({ ruleId });
    expect(job.due_in_s).toBeGreaterThan(DIGEST_DELAY_SECONDS - 5);
    expect(job.due_in_s).toBeLessThanOrEqual(DIGEST_DELAY_SECONDS);

    // More of the burst, in another evaluation: held for the same digest, which is not scheduled again.
    const second = await fireRule(database.db, jobs, await rule(), [...subjects.slice(5, 8), { ...subjects[0], reason: "regression" }]);
    expect(second.notificationIds).toHaveLength(actionIds.length);
    expect(second.suppressed).toBe(3);
    expect(second.digestDueAt).toBeNull();
    expect(await digestJobs()).toHaveLength(1);
    const [held] = await rows<{ n: number }>(sql`select count(*)::int as n from alert_notifications where rule_id = ${ruleId}::uuid and held`);
    expect(held.n).toBe((8 - BURST_INDIVIDUAL_ALERTS) * actionIds.length);
  });

  it("one digest per action listing every held alert once, however many runners take the job at once", async () => {
    await Promise.all([sendDigest(database.db, jobs, { ruleId }), sendDigest(database.db, jobs, { ruleId }), sendDigest(database.db, jobs, { ruleId })]);
    const sent = await digests();
    expect(sent.map((digest) => digest.actionId).sort()).toEqual([...actionIds].sort());
    expect(sent.every((digest) => digest.suppressedCount === 8 - BURST_INDIVIDUAL_ALERTS)).toBe(true);
    for (const digest of sent) {
      const listed = await database.db
        .select({ issueId: alertNotifications.issueId, actionId: alertNotifications.actionId })
        .from(alertNotifications)
        .where(eq(alertNotifications.digestId, digest.id));
      expect(listed.map((entry) => entry.issueId).sort()).toEqual(
        subjects
          .slice(BURST_INDIVIDUAL_ALERTS, 8)
          .map((subject) => subject.id)
          .sort(),
      );
      expect(listed.every((entry) => entry.actionId === digest.actionId)).toBe(true);
    }
    expect(await rows(sql`select 1 from alert_notifications where rule_id = ${ruleId}::uuid and held`)).toHaveLength(0);
    // Its delivery jobs, and nothing more: a retried digest job finds nothing left.
    await sendDigest(database.db, jobs, { ruleId });
    expect(await digests()).toHaveLength(actionIds.length);
    // (The job queue deletes a job its handler completed.)
    await rows(sql`delete from jobs where name = 'alert.digest'`);
  });

  it("a later digest of the same burst keeps its distance from the previous one", async () => {
    const outcome = await fireRule(database.db, jobs, await rule(), [subjects[8]]);
    expect(outcome.suppressed).toBe(1);
    const [job] = await digestJobs();
    expect(job.due_in_s).toBeGreaterThan(DIGEST_SPACING_MINUTES * 60 - 10);
    expect(job.due_in_s).toBeLessThanOrEqual(DIGEST_SPACING_MINUTES * 60);
  });

  it("a digest the job queue gave up is scheduled again by the next held alert", async () => {
    // Every attempt failed: the job is gone, its due time long past.
    await rows(sql`delete from jobs where name = 'alert.digest'`);
    await rows(sql`update alert_rule_bursts set digest_due_at = now() - interval '10 minutes' where rule_id = ${ruleId}::uuid`);
    const outcome = await fireRule(database.db, jobs, await rule(), [subjects[9]]);
    expect(outcome.suppressed).toBe(1);
    expect(outcome.digestDueAt).not.toBeNull();
    expect(await digestJobs()).toHaveLength(1);
  });

  it("after the quiet period a new burst starts: its first issues are sent one by one again", async () => {
    await quietPeriodPasses();
    const outcome = await fireRule(database.db, jobs, await rule(), subjects.slice(10, 10 + BURST_INDIVIDUAL_ALERTS));
    expect(outcome).toMatchObject({ suppressed: 0, repeats: 0 });
    expect(outcome.notificationIds).toHaveLength(BURST_INDIVIDUAL_ALERTS * actionIds.length);
    // The digest of the last burst's held alert is still due.
    expect(await digestJobs()).toHaveLength(1);
  });
});

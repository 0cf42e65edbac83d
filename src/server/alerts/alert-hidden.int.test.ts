import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { alertActions, alertRules, issueMinuteCounts, issues, projects } from "../db/schema/index";
import { executeRows } from "../db/execute";
import { JobQueue } from "../jobs/job-queue";
import { JOBS } from "../jobs/job-registry";
import { createLogger } from "../logger";
import { createTestDatabase, type TestDatabase } from "../../../test/helpers/test-database";
import { seedProject } from "../../../test/helpers/seed";
import { evaluateFrequency, evaluateIssueFacts } from "./alert-evaluator";

/**
 * A deleted issue or project is gone from the request on, while its rows wait for the deletion
 * job: no rule fires about it in between (new issue, spike or event rate).
 */
describe("alert rules and deletions in progress", () => {
  let database: TestDatabase;
  let jobs: JobQueue;
  let project: Awaited<ReturnType<typeof seedProject>>;
  let live: string;
  let doomed: string;

  const rule = (name: string, trigger: Record<string, unknown>) => ({
    organizationId: project.organizationId,
    projectId: project.projectId,
    name,
    triggerType: trigger.type as string,
    trigger: JSON.stringify(trigger),
    filters: "{}",
  });
  const fired = async () =>
    (
      await executeRows<{ rule: string; subject: string | null }>(
        database.db,
        sql`select r.name as rule, n.issue_id::text as subject from alert_notifications n join alert_rules r on r.id = n.rule_id order by 1, 2`,
      )
    ).map((row) => `${row.rule}:${row.subject === live ? "live" : row.subject === doomed ? "doomed" : row.subject}`);

  beforeAll(async () => {
    database = await createTestDatabase();
    // No worker: deliveries stay queued; the notifications rows say what fired.
    jobs = new JobQueue(JOBS, database.db, createLogger("silent"));
    project = await seedProject(database.db, "hidden");
    const created = await database.db
      .insert(alertRules)
      .values([
        rule("new", { type: "new_issue" }),
        rule("spike", { type: "issue_frequency", count: 1, minutes: 5 }),
        rule("rate", { type: "event_rate", count: 1, minutes: 5 }),
      ])
      .returning({ id: alertRules.id });
    await database.db.insert(alertActions).values(
      created.map((row) => ({
        organizationId: project.organizationId,
        projectId: project.projectId,
        ruleId: row.id,
        type: "email",
        recipients: JSON.stringify({ to: "members" }),
      })),
    );
    const now = new Date();
    const issueRows = await database.db
      .insert(issues)
      .values(
        ["live", "doomed"].map((name) => ({
          organizationId: project.organizationId,
          projectId: project.projectId,
          fingerprint: name,
          groupingVersion: 2,
          title: name,
          level: "error",
          severity: "HIGH",
          firstSeen: now,
          lastSeen: now,
        })),
      )
      .returning({ id: issues.id });
    [live, doomed] = issueRows.map((row) => row.id);
    await database.db.insert(issueMinuteCounts).values(
      issueRows.map((row) => ({
        organizationId: project.organizationId,
        projectId: project.projectId,
        issueId: row.id,
        minute: sql`date_trunc('minute', now())`,
        count: 5,
      })),
    );
    // What a deletion request commits before its job runs: the mark.
    await database.db.update(issues).set({ deletionId: crypto.randomUUID() }).where(eq(issues.id, doomed));
  });
  afterAll(async () => {
    await jobs.close();
    await database.destroy();
  });

  it("fires for the live issue only: a marked issue is neither new nor spiking", async () => {
    const ref = { organizationId: project.organizationId, projectId: project.projectId };
    await evaluateIssueFacts(
      { db: database.db, jobs, logger: createLogger("silent") },
      { ...ref, facts: [live, doomed].map((issueId) => ({ issueId, kind: "new" as const })) },
    );
    await evaluateFrequency({ db: database.db, jobs, logger: createLogger("silent") }, ref);
    expect(await fired()).toEqual(["new:live", "rate:null", "spike:live"]);
  });

  it("fires nothing at all in a marked project", async () => {
    await database.db.execute(sql`delete from alert_notifications`);
    await database.db.execute(sql`delete from alert_rule_issue_fires`);
    await database.db.update(projects).set({ deletionId: crypto.randomUUID() }).where(eq(projects.id, project.projectId));
    const ref = { organizationId: project.organizationId, projectId: project.projectId };
    await evaluateIssueFacts({ db: database.db, jobs, logger: createLogger("silent") }, { ...ref, facts: [{ issueId: live, kind: "regression" }] });
    await evaluateFrequency({ db: database.db, jobs, logger: createLogger("silent") }, ref);
    expect(await fired()).toEqual([]);
  });
});

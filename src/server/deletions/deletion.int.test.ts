import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCaptures, replayOverHttp } from "../../../test/helpers/sdk-fixtures";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { createTriageProject, sendEvents, triageTenant, type TestEvent, type TriageProject } from "../../../test/helpers/triage-seed";
import type { HttpSession } from "../../../test/helpers/http-session";
import { executeRows } from "../db/execute";
import { createLogger } from "../logger";
import { runDeletion } from "./deletion-run";
import { selectDeletionById } from "./deletion.queries";

/** Every table with a project_id or issue_id column, from the catalog: a table added later is checked too. */
async function scopedTables(server: TestServer) {
  return executeRows<{ table_name: string; column_name: string }>(
    server.database.db,
    sql`select c.table_name, c.column_name from information_schema.columns c
          join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
         where c.table_schema = current_schema() and c.column_name in ('project_id', 'issue_id') and c.table_name <> 'deletions'
         order by 1, 2`,
  );
}

/** Rows per table naming any of `ids` in a project_id or issue_id column. */
async function rowsNaming(server: TestServer, ids: string[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const { table_name, column_name } of await scopedTables(server)) {
    const [row] = await executeRows<{ count: string | number }>(
      server.database.db,
      sql`select count(*) as count from ${sql.raw(`"${table_name}"`)} where ${sql.raw(`"${column_name}"`)}::text = any(${`{${ids.join(",")}}`}::text[])`,
    );
    if (Number(row.count) > 0) counts[`${table_name}.${column_name}`] = Number(row.count);
  }
  return counts;
}

/**
 * Nothing of `before` was deleted: every table still holds at least as many rows naming the ids.
 * (Work ingest hands on — alert notifications, tag counts — may still add rows meanwhile; a
 * deletion only removes.)
 */
function expectNoneDeleted(after: Record<string, number>, before: Record<string, number>) {
  for (const [table, count] of Object.entries(before)) expect(after[table] ?? 0, table).toBeGreaterThanOrEqual(count);
}

async function issueIdsOf(server: TestServer, projectId: string) {
  const rows = await executeRows<{ id: string }>(server.database.db, sql`select id from issues where project_id = ${projectId}::uuid`);
  return rows.map((row) => row.id);
}

async function waitForDeletion(session: HttpSession, orgId: string, deletionId: string) {
  for (let i = 0; i < 400; i++) {
    const answer = await session.request(`/api/v1/organizations/${orgId}/deletions/${deletionId}`);
    expect(answer.status, answer.text).toBe(200);
    if (answer.body.status === "done" || answer.body.status === "failed") return answer.body;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("deletion did not finish");
}

const events = (prefix: string, users: TestEvent["user"][]): TestEvent[] =>
  users.flatMap((user, n) => [
    { type: `${prefix}Error`, value: `boom ${n}`, fn: "charge", release: "shop@1.0.0", tags: { region: "eu" }, user },
    { type: `${prefix}Timeout`, value: `slow ${n}`, fn: "fetchCart", release: "shop@1.0.0", user },
  ]);

/** Real SDK captures (@sentry/node: errors, sessions, transactions) plus envelopes carrying users. */
async function fill(server: TestServer, project: TriageProject, prefix: string) {
  for (const capture of loadCaptures("node")) await replayOverHttp(server.url, capture, { projectNumber: project.number, publicKey: project.apiKey });
  await sendEvents(
    server,
    project,
    events(prefix, [{ id: "u1", email: "ada.erase@example.test" }, { email: "bob.erase@example.test" }, { ip_address: "203.0.113.9" }]),
  );
}

describe("deletions (issue 35)", () => {
  let server: TestServer;
  let session: HttpSession;
  let orgId: string;
  let doomed: TriageProject;
  let kept: TriageProject;

  beforeAll(async () => {
    server = await startTestServer();
    const tenant = await triageTenant(server, "Deletions");
    session = tenant.session;
    orgId = tenant.org.id;
    doomed = tenant.project;
    kept = await createTriageProject(session, "Kept project");
    await fill(server, doomed, "Doomed");
    await fill(server, kept, "Kept");
  }, 120_000);
  afterAll(() => server.close());

  it("deletes an issue: gone at once for readers, then no row of it in any table, other issues untouched", async () => {
    const [issueId, otherIssue] = await issueIdsOf(server, doomed.id);
    const before = await rowsNaming(server, [otherIssue]);
    expect(Object.keys(await rowsNaming(server, [issueId]))).toContain("occurrences.issue_id");
    const projectCount = () =>
      executeRows<{ sum: string | number }>(
        server.database.db,
        sql`select coalesce(sum(count), 0) as sum from project_daily_counts where project_id = ${doomed.id}::uuid`,
      ).then(([row]) => Number(row.sum));
    const chartedBefore = await projectCount();
    const asked = await session.request(`/api/v1/organizations/${orgId}/projects/${doomed.id}/issues/${issueId}`, { method: "DELETE" });
    expect(asked.status, asked.text).toBe(202);
    expect(Object.keys(asked.body)).toEqual(["deletionId"]);
    const read = await session.request(`/api/v1/organizations/${orgId}/projects/${doomed.id}/issues/${issueId}`);
    expect(read.status).toBe(404);
    const list = await session.request(`/api/v1/organizations/${orgId}/projects/${doomed.id}/issues`);
    expect(list.body.items.map((issue: { id: string }) => issue.id)).not.toContain(issueId);
    const finished = await waitForDeletion(session, orgId, asked.body.deletionId);
    expect(finished).toMatchObject({ status: "done", kind: "issue", target: issueId });
    expect(finished.done).toBe(finished.total);
    expect(finished.total).toBeGreaterThan(1);
    expect(await rowsNaming(server, [issueId])).toEqual({});
    expectNoneDeleted(await rowsNaming(server, [otherIssue]), before);
    // The project's charts lose the issue's occurrences (total = occurrences + the issue row).
    expect(chartedBefore - (await projectCount())).toBe(finished.total - 1);
  });

  it("deletes a project: its keys refused at once, no row of it or its issues in any table, the other project untouched", async () => {
    const keptBefore = await rowsNaming(server, [kept.id, ...(await issueIdsOf(server, kept.id))]);
    const doomedIssues = await issueIdsOf(server, doomed.id);
    expect(Object.keys(await rowsNaming(server, [doomed.id])).length).toBeGreaterThan(5);
    const asked = await session.request(`/api/v1/organizations/${orgId}/projects/${doomed.id}`, { method: "DELETE" });
    expect(asked.status, asked.text).toBe(202);
    // Refused with 401 at once, the answer Sentry SDKs treat as final for a DSN (no retry).
    const ingest = await fetch(`${server.url}/api/${doomed.number}/envelope/?sentry_key=${doomed.apiKey}`, {
      method: "POST",
      body: '{}\n{"type":"event"}\n{"message":"late"}\n',
    });
    expect(ingest.status).toBe(401);
    expect((await session.request(`/api/v1/organizations/${orgId}/projects/${doomed.id}`)).status).toBe(404);
    const projects = await session.request(`/api/v1/organizations/${orgId}/projects`);
    expect(projects.body.map((project: { id: string }) => project.id)).toEqual([kept.id]);
    const finished = await waitForDeletion(session, orgId, asked.body.deletionId);
    expect(finished).toMatchObject({ status: "done", kind: "project", target: doomed.id, targetName: "Deletions project" });
    expect(await rowsNaming(server, [doomed.id, ...doomedIssues])).toEqual({});
    expect(await executeRows(server.database.db, sql`select id from projects where id = ${doomed.id}::uuid`)).toEqual([]);
    expectNoneDeleted(await rowsNaming(server, [kept.id, ...(await issueIdsOf(server, kept.id))]), keptBefore);
    const audit = await session.request(`/api/v1/organizations/${orgId}/deletions`);
    expect(audit.body.map((deletion: { kind: string }) => deletion.kind)).toEqual(expect.arrayContaining(["issue", "project"]));
  });

  it("erases a person by email: none of their occurrences left, others untouched, no raw email in the audit", async () => {
    const count = (where: ReturnType<typeof sql>) =>
      executeRows<{ count: string | number }>(
        server.database.db,
        sql`select count(*) as count from occurrences where project_id = ${kept.id}::uuid and ${where}`,
      ).then(([row]) => Number(row.count));
    const ada = sql`data like '%ada.erase@example.test%'`;
    const bob = sql`data like '%bob.erase@example.test%'`;
    const others = await count(sql`not (data like '%bob.erase@example.test%')`);
    expect(await count(bob)).toBe(2);
    expect(await count(ada)).toBe(2);
    const refused = await session.request(`/api/v1/organizations/${orgId}/user-data/erase`, {
      body: { email: "bob.erase@example.test", ipAddress: "203.0.113.9" },
    });
    expect(refused.status).toBe(400);
    const asked = await session.request(`/api/v1/organizations/${orgId}/user-data/erase`, { body: { email: "bob.erase@example.test" } });
    expect(asked.status, asked.text).toBe(202);
    const finished = await waitForDeletion(session, orgId, asked.body.deletionId);
    expect(finished).toMatchObject({ status: "done", kind: "user_data", done: 2, total: 2 });
    expect(finished.target).toMatch(/^email:[0-9a-f]{64}$/);
    expect(JSON.stringify(finished)).not.toContain("bob.erase@example.test");
    const audit = await executeRows(server.database.db, sql`select * from deletions where id = ${asked.body.deletionId}::uuid`);
    expect(JSON.stringify(audit)).not.toContain("bob.erase@example.test");
    expect(await count(bob)).toBe(0);
    expect(await count(sql`not (data like '%bob.erase@example.test%')`)).toBe(others);
    // Ada's first identifier is her id (user_key "id:u1"): found by the email inside the event.
    const byEmail = await session.request(`/api/v1/organizations/${orgId}/user-data/erase`, { body: { email: "ada.erase@example.test" } });
    expect((await waitForDeletion(session, orgId, byEmail.body.deletionId)).done).toBe(2);
    expect(await count(ada)).toBe(0);
  });

  it("reports growing progress batch by batch and finishes after a run stopped midway", async () => {
    const project = await createTriageProject(session, "Many batches");
    await sendEvents(
      server,
      project,
      Array.from({ length: 12 }, (_, n) => ({ type: "BatchError", value: `n${n}`, fn: `f${n % 3}` })),
    );
    // Asked as the service does, minus the job: this test is the runner, stopped and started again.
    const [{ id: deletionId }] = await executeRows<{ id: string }>(
      server.database.db,
      sql`insert into deletions (organization_id, kind, target, target_name, requested_by) values (${orgId}, 'project', ${project.id}, 'Many batches', 'user:test') returning id`,
    );
    await server.database.db.execute(sql`update projects set deletion_id = ${deletionId}::uuid where id = ${project.id}::uuid`);
    const seen: number[] = [];
    let batches = 0;
    const stopAfterTwo = async () => {
      seen.push((await selectDeletionById(server.database.db, deletionId))!.done);
      if (++batches === 2) throw new Error("process died");
    };
    const logger = createLogger("error", () => {});
    const deps = { db: server.database.db, logger, batchSize: 4, onBatch: stopAfterTwo };
    await expect(runDeletion(deps, { deletionId })).rejects.toThrow("process died");
    await runDeletion({ ...deps, onBatch: undefined }, { deletionId });
    const row = (await selectDeletionById(server.database.db, deletionId))!;
    expect(row.status).toBe("done");
    expect(row.done).toBe(row.total);
    expect(await rowsNaming(server, [project.id])).toEqual({});
    expect(seen.length).toBe(2);
    expect(seen[1]).toBeGreaterThan(seen[0]);
  });

  it("answers NOT_FOUND for another organization's deletion, project and issue", async () => {
    const other = await triageTenant(server, "Outsider");
    const [issueId] = await issueIdsOf(server, kept.id);
    const theirs = (path: string, init?: Parameters<HttpSession["request"]>[1]) => other.session.request(path, init);
    expect((await theirs(`/api/v1/organizations/${orgId}/projects/${kept.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await theirs(`/api/v1/organizations/${other.org.id}/projects/${kept.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await theirs(`/api/v1/organizations/${other.org.id}/projects/${other.project.id}/issues/${issueId}`, { method: "DELETE" })).status).toBe(404);
    const [mine] = (await session.request(`/api/v1/organizations/${orgId}/deletions`)).body;
    expect((await theirs(`/api/v1/organizations/${other.org.id}/deletions/${mine.id}`)).status).toBe(404);
    expect((await theirs(`/api/v1/organizations/${orgId}/deletions/${mine.id}`)).status).toBe(404);
    expect((await issueIdsOf(server, kept.id)).length).toBeGreaterThan(0);
  });
});

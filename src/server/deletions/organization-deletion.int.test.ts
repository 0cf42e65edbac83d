import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCaptures, replayOverHttp } from "../../../test/helpers/sdk-fixtures";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { createTriageProject, sendEvents, triageTenant, type TriageProject } from "../../../test/helpers/triage-seed";
import { lastMail, signUpVerified } from "../../../test/helpers/test-users";
import type { HttpSession } from "../../../test/helpers/http-session";
import { executeRows } from "../db/execute";
import { createLogger } from "../logger";
import { runDeletion } from "./deletion-run";
import { selectDeletionById } from "./deletion.queries";

/** Every column of the schema that names an organization, a project or an issue, from the catalog: a table added later is checked too. */
async function scopeColumns(server: TestServer) {
  return executeRows<{ table_name: string; column_name: string }>(
    server.database.db,
    sql`select c.table_name, c.column_name from information_schema.columns c
          join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
         where c.table_schema = current_schema() and c.table_name <> 'deletions'
           and (c.column_name in ('organization_id', 'active_organization_id', 'project_id', 'issue_id') or (c.table_name = 'organizations' and c.column_name = 'id'))
         order by 1, 2`,
  );
}

/** Rows per table.column naming any of `ids` (the organization, its projects, its issues). */
async function rowsNaming(server: TestServer, ids: string[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const { table_name, column_name } of await scopeColumns(server)) {
    const [row] = await executeRows<{ count: string | number }>(
      server.database.db,
      sql`select count(*) as count from ${sql.raw(`"${table_name}"`)} where ${sql.raw(`"${column_name}"`)}::text = any(${`{${ids.join(",")}}`}::text[])`,
    );
    if (Number(row.count) > 0) counts[`${table_name}.${column_name}`] = Number(row.count);
  }
  return counts;
}

async function idsOf(server: TestServer, orgId: string) {
  const projects = await executeRows<{ id: string }>(server.database.db, sql`select id::text as id from projects where organization_id = ${orgId}`);
  const issues = await executeRows<{ id: string }>(server.database.db, sql`select id::text as id from issues where organization_id = ${orgId}`);
  return [orgId, ...projects.map((row) => row.id), ...issues.map((row) => row.id)];
}

/** Real SDK captures (errors, sessions, transactions) and a few errors carrying users. */
async function fill(server: TestServer, project: TriageProject, prefix: string) {
  for (const capture of loadCaptures("node")) await replayOverHttp(server.url, capture, { projectNumber: project.number, publicKey: project.apiKey });
  await sendEvents(
    server,
    project,
    [1, 2, 3].map((n) => ({ type: `${prefix}Error`, value: `boom ${n}`, fn: "charge", release: "shop@1.0.0", tags: { region: "eu" }, user: { id: `u${n}` } })),
  );
}

async function addMember(server: TestServer, owner: HttpSession, orgId: string, role: "admin" | "member") {
  const email = `${role}-${crypto.randomUUID()}@example.com`;
  const invite = await owner.request("/api/auth/organization/invite-member", { body: { email, role, organizationId: orgId } });
  expect(invite.status, invite.text).toBe(200);
  const joined = await signUpVerified(server, { email });
  const invitationId = new URL(lastMail(server, email, "invitation").actionUrl).searchParams.get("invitationId");
  expect((await joined.session.request("/api/auth/organization/accept-invitation", { body: { invitationId } })).status).toBe(200);
  await joined.session.request("/api/auth/organization/set-active", { body: { organizationId: orgId } });
  return joined.session;
}

async function waitForDeletion(session: HttpSession, deletionId: string) {
  for (let i = 0; i < 400; i++) {
    const answer = await session.request(`/api/v1/deletions/${deletionId}`);
    expect(answer.status, answer.text).toBe(200);
    if (answer.body.status === "done" || answer.body.status === "failed") return answer.body;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("deletion did not finish");
}

describe("organization deletion (issue 35)", () => {
  let server: TestServer;
  let doomed: Awaited<ReturnType<typeof triageTenant>>;
  let second: TriageProject;
  let kept: Awaited<ReturnType<typeof triageTenant>>;
  let member: HttpSession;

  beforeAll(async () => {
    server = await startTestServer();
    doomed = await triageTenant(server, "Doomed org");
    second = await createTriageProject(doomed.session, "Second project");
    kept = await triageTenant(server, "Kept org");
    await fill(server, doomed.project, "Doomed");
    await fill(server, second, "Second");
    await fill(server, kept.project, "Kept");
    member = await addMember(server, doomed.session, doomed.org.id, "member");
    await addMember(server, doomed.session, doomed.org.id, "admin");
    const token = await doomed.session.mutation("apiToken.create", { name: "doomed", scopes: ["project:read"] });
    expect(token.error).toBeUndefined();
  }, 180_000);
  afterAll(() => server.close());

  it("refuses a member (403), another organization's id (404) and better-auth's one-statement delete", async () => {
    const refused = await member.request(`/api/v1/organizations/${doomed.org.id}`, { method: "DELETE" });
    expect(refused.status, refused.text).toBe(403);
    expect((await member.mutation("deletion.deleteOrganization", { organizationId: doomed.org.id })).error?.code).toBe("FORBIDDEN");
    expect((await doomed.session.request(`/api/v1/organizations/${kept.org.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await doomed.session.mutation("deletion.deleteOrganization", { organizationId: kept.org.id })).error?.code).toBe("NOT_FOUND");
    const direct = await doomed.session.request("/api/auth/organization/delete", { body: { organizationId: doomed.org.id } });
    expect(direct.status, direct.text).toBe(403);
    expect(direct.body.code).toBe("DELETE_ORGANIZATION_THROUGH_API");
    expect(await executeRows(server.database.db, sql`select id from organizations where id = ${doomed.org.id}`)).toHaveLength(1);
  });

  it("deletes through REST: 202, nobody gets in at once, progress to done, then no row of it in any table; the other organization untouched", async () => {
    const keptBefore = await rowsNaming(server, await idsOf(server, kept.org.id));
    const doomedIds = await idsOf(server, doomed.org.id);
    expect(Object.keys(await rowsNaming(server, doomedIds)).length).toBeGreaterThan(10);
    const impact = await doomed.session.query("deletion.organizationImpact");
    expect(impact.data).toMatchObject({ projects: 2 });
    expect(impact.data.occurrences).toBeGreaterThan(6);

    const asked = await doomed.session.request(`/api/v1/organizations/${doomed.org.id}`, { method: "DELETE" });
    expect(asked.status, asked.text).toBe(202);
    expect(Object.keys(asked.body)).toEqual(["deletionId"]);
    // Gone at once for everyone: members (owner included), the organization list, its project keys.
    expect((await member.request(`/api/v1/organizations/${doomed.org.id}/projects`)).status).toBe(404);
    expect((await doomed.session.request(`/api/v1/organizations/${doomed.org.id}`)).status).toBe(404);
    const listed = await doomed.session.request("/api/v1/organizations");
    expect(listed.body.map((org: { id: string }) => org.id)).not.toContain(doomed.org.id);
    const ingest = await fetch(`${server.url}/api/${second.number}/envelope/?sentry_key=${second.apiKey}`, {
      method: "POST",
      body: '{}\n{"type":"event"}\n{"message":"late"}\n',
    });
    expect(ingest.status).toBe(401);
    // Someone else's deletion is not theirs to read.
    expect((await member.request(`/api/v1/deletions/${asked.body.deletionId}`)).status).toBe(404);

    const finished = await waitForDeletion(doomed.session, asked.body.deletionId);
    expect(finished).toMatchObject({ status: "done", kind: "organization", target: doomed.org.id, targetName: "Doomed org" });
    expect(finished.done).toBe(finished.total);
    expect(finished.total).toBe(impact.data.occurrences + impact.data.issues);
    expect((await doomed.session.query("deletion.requested", { deletionId: asked.body.deletionId })).data).toMatchObject({ status: "done" });
    expect(await rowsNaming(server, doomedIds)).toEqual({});
    // The other organization lost nothing (work ingest handed on may still add rows).
    const keptAfter = await rowsNaming(server, await idsOf(server, kept.org.id));
    for (const [table, count] of Object.entries(keptBefore)) expect(keptAfter[table] ?? 0, table).toBeGreaterThanOrEqual(count);
    expect((await kept.session.request(`/api/v1/organizations/${kept.org.id}/projects`)).status).toBe(200);
  });

  it("finishes after a run stopped midway, the progress growing batch by batch", async () => {
    const tenant = await triageTenant(server, "Crashing org");
    const other = await createTriageProject(tenant.session, "Crashing second");
    for (const project of [tenant.project, other])
      await sendEvents(
        server,
        project,
        Array.from({ length: 6 }, (_, n) => ({ type: "BatchError", value: `n${n}`, fn: `f${n % 2}` })),
      );
    const ids = await idsOf(server, tenant.org.id);
    const [{ rows }] = await executeRows<{ rows: string | number }>(
      server.database.db,
      sql`select (select count(*) from occurrences where organization_id = ${tenant.org.id}) + (select count(*) from issues where organization_id = ${tenant.org.id}) as rows`,
    );
    // Asked as the service does, minus the job: this test is the runner, stopped and started again.
    const [{ id: deletionId }] = await executeRows<{ id: string }>(
      server.database.db,
      sql`insert into deletions (organization_id, kind, target, target_name, requested_by) values (${tenant.org.id}, 'organization', ${tenant.org.id}, 'Crashing org', 'user:test') returning id`,
    );
    await server.database.db.execute(sql`update projects set deletion_id = ${deletionId}::uuid where organization_id = ${tenant.org.id}`);
    const seen: number[] = [];
    let batches = 0;
    const stopAfterThree = async () => {
      seen.push((await selectDeletionById(server.database.db, deletionId))!.done);
      if (++batches === 3) throw new Error("process died");
    };
    const deps = { db: server.database.db, logger: createLogger("error", () => {}), batchSize: 4, onBatch: stopAfterThree };
    await expect(runDeletion(deps, { deletionId })).rejects.toThrow("process died");
    expect(await executeRows(server.database.db, sql`select id from organizations where id = ${tenant.org.id}`)).toHaveLength(1);
    await runDeletion({ ...deps, onBatch: undefined }, { deletionId });
    const row = (await selectDeletionById(server.database.db, deletionId))!;
    expect(row).toMatchObject({ status: "done", total: Number(rows) });
    expect(row.total).toBeGreaterThan(12);
    expect(row.done).toBe(row.total);
    expect(seen[2]).toBeGreaterThan(seen[0]);
    expect(await rowsNaming(server, ids)).toEqual({});
  });
});

/**
 * bench:chat, part A: every read tool of the agent on the seeded project, called as the chat calls
 * it — `execute` with the conversation's scope (project, owner membership) and an input the
 * tool's own schema parsed, as the AI SDK does with the model's arguments.
 */
import { randomUUID } from "node:crypto";
import type { AgentScope } from "../src/server/agent/tools/agent-scope";
import type { AgentTool } from "../src/server/agent/tools/agent-tool";
import { READ_TOOLS } from "../src/server/agent/tools/agent-tools";
import type { Db } from "../src/server/db/client";
import { member, user } from "../src/server/db/schema/index";
import { addReleaseProjects, upsertRelease } from "../src/server/releases/release.queries";
import type { BenchDatabase } from "./bench-database";
import { largeTenantTables, sequentialScans } from "./plan-check";
import { largestIssue } from "./seed-million";
import { percentiles, timeRuns, type Percentiles } from "./timing";

export interface ToolRow extends Percentiles {
  name: string;
  seqScans: string[];
}

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

/** An owner of the seeded organization, a real user and membership row as sign-up would leave them. */
async function ownerScope(db: Db, organizationId: string, projectId: string): Promise<Omit<AgentScope, "db">> {
  const [owner] = await db
    .insert(user)
    .values({ name: "Bench Owner", email: `bench-owner-${randomUUID()}@example.com`, emailVerified: true })
    .returning();
  const [membership] = await db.insert(member).values({ organizationId, userId: owner.id, role: "owner" }).returning();
  return { org: { organizationId, userId: owner.id, role: membership.role }, projectId };
}

export async function benchReadTools(
  bench: BenchDatabase,
  target: { organizationId: string; projectId: string },
  { runs, warmups }: { runs: number; warmups: number },
): Promise<ToolRow[]> {
  const db = bench.database.db;
  const scope = await ownerScope(db, target.organizationId, target.projectId);
  const tool = (name: string) => {
    const found = (READ_TOOLS as readonly AgentTool[]).find((candidate) => candidate.name === name);
    if (!found) throw new Error(`no read tool named ${name}`);
    return found;
  };
  const call = (name: string, input: unknown) => (onDb: Db) => tool(name).execute({ ...scope, db: onDb }, tool(name).input.parse(input));

  const issueId = (await largestIssue(db, target.projectId)).id;
  const { exceptions } = (await call("listIssueExceptions", { issueId, limit: 1 })(db)) as { exceptions: { exceptionId: string }[] };
  const exceptionId = exceptions[0]?.exceptionId;
  if (!exceptionId) throw new Error("the largest issue has no exception");

  // The seed names releases shop@1.0 … shop@1.39 on its issues; the release tools read their rows, made as sentry-cli would.
  for (let minor = 0; minor < 40; minor += 1) {
    const { row } = await upsertRelease(db, target.organizationId, `shop@1.${minor}`, {});
    await addReleaseProjects(db, target.organizationId, row.id, [target.projectId]);
  }

  const cases: [label: string, toolName: string, input: unknown][] = [
    ["searchIssues: newest 10", "searchIssues", {}],
    ['searchIssues: text "module 42"', "searchIssues", { text: "module 42" }],
    ["searchIssues: last 7 days by event count", "searchIssues", { dateFrom: daysAgo(7), sort: "eventCount" }],
    ["getIssue: the largest issue", "getIssue", { issueId }],
    ["listIssueExceptions: the largest issue", "listIssueExceptions", { issueId }],
    ["getException: one of its exceptions", "getException", { exceptionId }],
    ["dailyStats: project, 30 days", "dailyStats", { dateFrom: daysAgo(30) }],
    ["dailyStats: the largest issue, 30 days", "dailyStats", { issueId, dateFrom: daysAgo(30) }],
    ["whatChanged: last 24 hours (default)", "whatChanged", {}],
    ["whatChanged: last 7 days", "whatChanged", { dateFrom: daysAgo(7) }],
    ["issueTags: the largest issue", "issueTags", { issueId }],
    ["listReleases: newest 10", "listReleases", {}],
    ["getRelease: the newest (default)", "getRelease", {}],
  ];
  const covered = new Set(cases.map(([, name]) => name));
  const missing = READ_TOOLS.filter((readTool) => !covered.has(readTool.name)).map((readTool) => readTool.name);
  if (missing.length > 0) throw new Error(`bench:chat times no case of the read tool(s) ${missing.join(", ")}: add one`);

  const largeTables = await largeTenantTables(db);
  const rows: ToolRow[] = [];
  for (const [label, name, input] of cases) {
    const run = call(name, input);
    const times = await timeRuns(() => run(db), { runs, warmups });
    const row = { name: label, ...percentiles(times), seqScans: await sequentialScans(bench, largeTables, label, run) };
    console.log(JSON.stringify(row));
    rows.push(row);
  }
  return rows;
}

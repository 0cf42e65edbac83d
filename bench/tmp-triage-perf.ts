// Scratch perf probe for the triage API (deleted after use).
import { sql } from "drizzle-orm";
import { createTestDatabase } from "../test/helpers/test-database";
import { seedMillion } from "./seed-million";
import { listIssues, getIssue } from "../src/server/issues/issue.service";
import { listExceptions } from "../src/server/exceptions/exception.service";
import { dailyStats } from "../src/server/stats/stats.service";
import { ListIssuesInput, ListExceptionsInput, DailyStatsInput } from "../src/shared/triage.inputs";
import { executeRows } from "../src/server/db/execute";

const database = await createTestDatabase();
const t0 = Date.now();
const target = await seedMillion(database.db, { issues: 20_000, occurrences: Number(process.env.OCC ?? 1_000_000), days: 90 });
console.log("seeded in", Date.now() - t0, "ms");
const ctx = { db: database.db, org: { organizationId: target.organizationId, userId: "x", role: "owner" } };
const projectId = target.projectId;
const day = (n: number) => new Date(Date.now() - n * 86400000).toISOString().slice(0, 10);
const [largest] = await executeRows<{ id: string }>(database.db, sql`select id from issues where project_id = ${projectId}::uuid order by event_count desc limit 1`);
const cases: Record<string, () => Promise<unknown>> = {
  "list default": () => listIssues(ctx, ListIssuesInput.parse({ projectId })),
  "list eventCount": () => listIssues(ctx, ListIssuesInput.parse({ projectId, sort: "eventCount:DESC" })),
  "list firstSeen": () => listIssues(ctx, ListIssuesInput.parse({ projectId, sort: "firstSeen:DESC" })),
  "list userCount": () => listIssues(ctx, ListIssuesInput.parse({ projectId, sort: "userCount:DESC" })),
  "list severity": () => listIssues(ctx, ListIssuesInput.parse({ projectId, sort: "severity:DESC" })),
  "list title": () => listIssues(ctx, ListIssuesInput.parse({ projectId, sort: "title:ASC" })),
  "list OPEN": () => listIssues(ctx, ListIssuesInput.parse({ projectId, status: "OPEN" })),
  "list env+date": () => listIssues(ctx, ListIssuesInput.parse({ projectId, environments: "STAGING", dateFrom: new Date(Date.now() - 30 * 86400000) })),
  "list env only": () => listIssues(ctx, ListIssuesInput.parse({ projectId, environments: "DEVELOPMENT" })),
  "list query": () => listIssues(ctx, ListIssuesInput.parse({ projectId, query: "module 42" })),
  "list query nomatch": () => listIssues(ctx, ListIssuesInput.parse({ projectId, query: "zzzz-nothing" })),
  "list page 50": () => listIssues(ctx, ListIssuesInput.parse({ projectId, page: 50 })),
  "detail + 5 exceptions": () => Promise.all([getIssue(ctx, { projectId, issueId: largest.id }), listExceptions(ctx, ListExceptionsInput.parse({ projectId, issueId: largest.id, size: 5 }))]),
  "exceptions largest p1": () => listExceptions(ctx, ListExceptionsInput.parse({ projectId, issueId: largest.id })),
  "daily 30": () => dailyStats(ctx, DailyStatsInput.parse({ projectId, from: day(29), to: day(0) })),
  "daily 30 issue": () => dailyStats(ctx, DailyStatsInput.parse({ projectId, issueId: largest.id, from: day(29), to: day(0) })),
};
for (const [name, run] of Object.entries(cases)) {
  for (let i = 0; i < 3; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < 30; i++) { const s = performance.now(); await run(); times.push(performance.now() - s); }
  times.sort((a, b) => a - b);
  console.log(name.padEnd(24), "p50", times[15].toFixed(1), "p95", times[28].toFixed(1));
}
if (process.env.KEEP) console.log("db kept:", database.url); else await database.destroy();

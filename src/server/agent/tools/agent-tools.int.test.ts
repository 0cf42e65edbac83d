import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { AgentToolName } from "../../../shared/agent-tool-names";
import { issueActivities } from "../../db/schema/index";
import { AppError } from "../../errors";
import { startTestServer, type TestServer } from "../../../../test/helpers/test-server";
import { daysAgo, issueByType, sendEvent, sendEvents, triageTenant } from "../../../../test/helpers/triage-seed";
import type { AgentScope } from "./agent-scope";
import type { AgentTool } from "./agent-tool";
import { AGENT_TOOLS, READ_TOOLS } from "./agent-tools";
import { EXCEPTION_BUDGET_CHARS } from "./exception-detail.tool";

type Tenant = Awaited<ReturnType<typeof triageTenant>>;

const run = (tool: AgentTool, scope: AgentScope, input: unknown) => tool.execute(scope, tool.input.parse(input));
const byName = (name: AgentToolName) => AGENT_TOOLS.find((tool) => tool.name === name)!;

describe("the agent's tools over the triage services", () => {
  let server: TestServer;
  let a: Tenant;
  let b: Tenant;
  let aScope: AgentScope;
  const ids = { aIssue: "", aException: "", bIssue: "", bException: "" };

  beforeAll(async () => {
    server = await startTestServer();
    a = await triageTenant(server, "Tools A");
    b = await triageTenant(server, "Tools B");
    await sendEvent(server, a.project, { type: "OldError", value: "old", fn: "old", timestamp: daysAgo(5), release: "shop@1.0.0" });
    for (let n = 0; n < 3; n++) {
      await sendEvent(server, a.project, {
        type: "CheckoutError",
        value: `card declined ${"x".repeat(n === 0 ? 50_000 : 1)}`,
        fn: "pay",
        tags: { browser: "Chrome" },
      });
    }
    await sendEvent(server, b.project, { type: "SecretBError", value: "tenant-b-secret", fn: "bOnly" });
    const aIssue = await issueByType(a.session, a.project.id, "CheckoutError");
    const bIssue = await issueByType(b.session, b.project.id, "SecretBError");
    const aExceptions = await a.session.query("exception.list", { projectId: a.project.id, issueId: aIssue.id });
    const bExceptions = await b.session.query("exception.list", { projectId: b.project.id, issueId: bIssue.id });
    Object.assign(ids, { aIssue: aIssue.id, aException: aExceptions.data.items.at(-1).id, bIssue: bIssue.id, bException: bExceptions.data.items[0].id });
    aScope = { db: server.database.db, org: { organizationId: a.org.id, userId: a.userId, role: "owner" }, projectId: a.project.id };
  }, 60_000);
  afterAll(() => server.close());

  it("searches, details and counts the project's issues", async () => {
    type Found = { more: boolean; issues: { issueId: string; eventCount: number }[] };
    const found = (await run(byName("searchIssues"), aScope, { text: "Checkout" })) as Found;
    expect(found.more).toBe(false);
    expect(found.issues).toHaveLength(1);
    expect(found.issues[0]).toMatchObject({ issueId: ids.aIssue, eventCount: 3 });
    // One page and whether more match, not a count of every match.
    const first = (await run(byName("searchIssues"), aScope, { limit: 1, sort: "eventCount" })) as Found;
    expect(first).toMatchObject({ more: true, issues: [{ issueId: ids.aIssue }] });

    const detail = (await run(byName("getIssue"), aScope, { issueId: ids.aIssue })) as { latestExceptionId: string; eventCount: number };
    expect(detail.eventCount).toBe(3);
    expect(detail.latestExceptionId).toMatch(/^[0-9a-f-]{36}$/);

    const exceptions = (await run(byName("listIssueExceptions"), aScope, { issueId: ids.aIssue, limit: 2 })) as { total: number; exceptions: unknown[] };
    expect(exceptions.total).toBe(3);
    expect(exceptions.exceptions).toHaveLength(2);

    const stats = (await run(byName("dailyStats"), aScope, {})) as { total: number; days: unknown[] };
    expect(stats.total).toBe(4);
    expect(stats.days).toHaveLength(15);
    const issueStats = (await run(byName("dailyStats"), aScope, { issueId: ids.aIssue })) as { total: number };
    expect(issueStats.total).toBe(3);
  });

  it("gives one exception with its stack, trimmed to the size budget", async () => {
    const exception = (await run(byName("getException"), aScope, { exceptionId: ids.aException })) as Record<string, unknown>;
    const text = JSON.stringify(exception);
    expect(text).toContain('"pay"');
    expect(text).toContain("more characters");
    expect(text.length).toBeLessThan(EXCEPTION_BUDGET_CHARS + 2_000);
  });

  it("says what is new in the window and what is not", async () => {
    const changed = (await run(byName("whatChanged"), aScope, {})) as { newIssues: { title: string }[]; regressed: unknown[] };
    expect(changed.newIssues.map((issue) => issue.title.split(":")[0])).toEqual(["CheckoutError"]);
    expect(changed.regressed).toEqual([]);
    const week = (await run(byName("whatChanged"), aScope, { dateFrom: daysAgo(7).toISOString() })) as { newIssues: { title: string }[] };
    expect(week.newIssues.map((issue) => issue.title.split(":")[0]).sort()).toEqual(["CheckoutError", "OldError"]);
  });

  it("says what spikes against the previous window of the same length, and what only stays busy", async () => {
    const c = await triageTenant(server, "Tools C");
    const times = (count: number, event: Parameters<typeof sendEvent>[2]) => Array.from({ length: count }, () => event);
    await sendEvents(server, c.project, [
      { type: "SpikeError", value: "s", fn: "spike", timestamp: daysAgo(5) },
      ...times(10, { type: "SpikeError", value: "s", fn: "spike" }),
      ...times(12, { type: "SteadyError", value: "t", fn: "steady", timestamp: daysAgo(5) }),
      ...times(12, { type: "SteadyError", value: "t", fn: "steady" }),
    ]);
    const cScope = { db: server.database.db, org: { organizationId: c.org.id, userId: c.userId, role: "owner" }, projectId: c.project.id };
    type Changed = { spiking: { title: string; occurrencesInWindow: number; occurrencesInPreviousWindow: number }[] };
    // The last three days against the three before them: 10 against 1 spikes, 12 against 12 does not.
    const changed = (await run(byName("whatChanged"), cScope, { dateFrom: daysAgo(3).toISOString() })) as Changed;
    expect(changed.spiking).toEqual([
      expect.objectContaining({ title: expect.stringMatching(/^SpikeError/), occurrencesInWindow: 10, occurrencesInPreviousWindow: 1 }),
    ]);
  });

  it("changes status and severity as the user, in the issue's activity", async () => {
    await run(byName("setIssueStatus"), aScope, { issueId: ids.aIssue, status: "RESOLVED" });
    await run(byName("setIssueSeverity"), aScope, { issueId: ids.aIssue, severity: "CRITICAL" });
    const activity = await server.database.db.select().from(issueActivities).where(eq(issueActivities.issueId, ids.aIssue));
    expect(activity.map((row) => [row.kind, row.toValue, row.actorUserId])).toEqual(
      expect.arrayContaining([
        ["status", "RESOLVED", a.userId],
        ["severity", "CRITICAL", a.userId],
      ]),
    );
    // Resolving in a release goes through the same service: a release the organization does not have is refused, as inRelease without RESOLVED.
    await expect(run(byName("setIssueStatus"), aScope, { issueId: ids.aIssue, status: "RESOLVED", inRelease: "no-such-release" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "There is no release “no-such-release” in this organization: create it first (sentry-cli releases new), or resolve in the next release.",
    });
    await expect(run(byName("setIssueStatus"), aScope, { issueId: ids.aIssue, status: "IGNORED", inRelease: "next" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await expect(
      run(byName("setIssueStatus"), { ...aScope, org: { ...aScope.org, role: "viewer" } }, { issueId: ids.aIssue, status: "OPEN" }),
    ).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
  });

  it("refuses another organization's issue and exception ids with NOT_FOUND on every tool", async () => {
    const foreign: Record<string, unknown> = {
      searchIssues: null,
      whatChanged: null,
      dailyStats: { issueId: ids.bIssue },
      getIssue: { issueId: ids.bIssue },
      issueTags: { issueId: ids.bIssue },
      listReleases: null,
      // B's version names no release of A's project.
      getRelease: { version: "b-only@1.0.0" },
      listIssueExceptions: { issueId: ids.bIssue },
      getException: { exceptionId: ids.bException },
      setIssueStatus: { issueId: ids.bIssue, status: "IGNORED" },
      setIssueSeverity: { issueId: ids.bIssue, severity: "LOW" },
    };
    for (const tool of AGENT_TOOLS) {
      expect(tool.name in foreign, `${tool.name} has a foreign-id case`).toBe(true);
      const input = foreign[tool.name];
      if (input === null) continue; // takes no row id: bound to the scope's project alone (next test)
      const error = await run(tool, aScope, input).catch((caught: unknown) => caught);
      expect(error, tool.name).toBeInstanceOf(AppError);
      expect((error as AppError).code, tool.name).toBe("NOT_FOUND");
    }
    const bIssue = await b.session.query("issue.get", { projectId: b.project.id, issueId: ids.bIssue });
    expect(bIssue.data).toMatchObject({ status: "OPEN", severity: bIssue.data.severity });
    expect(bIssue.data.activity).toEqual([]);
  });

  it("refuses a scope that names another organization's project (how an API token would reach it)", async () => {
    const crossed: AgentScope = { ...aScope, projectId: b.project.id };
    for (const tool of READ_TOOLS) {
      const input =
        tool.name === "getException"
          ? { exceptionId: ids.bException }
          : tool.input instanceof z.ZodObject && "issueId" in tool.input.shape
            ? { issueId: ids.bIssue }
            : {};
      const error = await run(tool, crossed, input).catch((caught: unknown) => caught);
      expect((error as AppError).code, tool.name).toBe("NOT_FOUND");
      expect((error as AppError).message, tool.name).toBe("Project not found");
    }
  });

  it("validates the model's input before any service runs", () => {
    expect(byName("getIssue").input.safeParse({ issueId: "not-a-uuid" }).success).toBe(false);
    expect(byName("searchIssues").input.safeParse({ dateFrom: "yesterday" }).success).toBe(false);
    expect(byName("searchIssues").input.safeParse({ limit: 10_000 }).success).toBe(false);
  });
});

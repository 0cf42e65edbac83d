/**
 * The agent's release tools (issue 34), in the chat's scope and over MCP: the list with health and
 * one release's health, new issues and commits, read from rows written into the release tables.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../../errors";
import { seedCommits, seedHealthHour, seedRelease } from "../../../../test/helpers/release-seed";
import { startTestServer, type TestServer } from "../../../../test/helpers/test-server";
import { hoursAgo, sendEvent, triageTenant } from "../../../../test/helpers/triage-seed";
import type { AgentScope } from "./agent-scope";
import { listReleasesTool } from "./list-releases.tool";
import { releaseDetailTool } from "./release-detail.tool";

type Tenant = Awaited<ReturnType<typeof triageTenant>>;

describe("the agent's release tools", () => {
  let server: TestServer;
  let a: Tenant;
  let b: Tenant;
  let scope: AgentScope;

  beforeAll(async () => {
    server = await startTestServer();
    a = await triageTenant(server, "Release Tools A");
    b = await triageTenant(server, "Release Tools B");
    const db = server.services.db;
    const old = await seedRelease(db, { organizationId: a.org.id, projectId: a.project.id, version: "app@1.0.0", createdAt: hoursAgo(30) });
    await seedRelease(db, { organizationId: a.org.id, projectId: a.project.id, version: "app@1.1.0", createdAt: hoursAgo(3) });
    await seedRelease(db, { organizationId: b.org.id, projectId: b.project.id, version: "b-secret@9.0.0" });
    await seedHealthHour(db, {
      organizationId: a.org.id,
      projectId: a.project.id,
      release: "app@1.0.0",
      environment: "production",
      hour: hoursAgo(5),
      sessions: 40,
      crashed: 2,
    });
    await seedCommits(db, a.org.id, old, [{ commitId: "f".repeat(40), message: "Fix rounding\n\nlong body", authorName: "Ada" }]);
    await sendEvent(server, a.project, { type: "RoundingError", value: "0.1 + 0.2", fn: "sum", release: "app@1.0.0" });
    scope = { db, org: { organizationId: a.org.id, userId: a.userId, role: "owner" }, projectId: a.project.id };
  }, 60_000);
  afterAll(() => server.close());

  it("lists the releases with health, and reads one release (the newest by default)", async () => {
    const list = (await listReleasesTool.execute(scope, listReleasesTool.input.parse({}))) as {
      total: number;
      releases: { version: string; health: unknown }[];
    };
    expect(list.total).toBe(2);
    expect(list.releases.map((release) => release.version)).toEqual(["app@1.1.0", "app@1.0.0"]);
    expect(list.releases[1].health).toEqual({ sessions: 40, crashFreeSessions: 95, crashFreeUsers: null, adoption: 100 });
    expect(list.releases[0].health).toMatchObject({ sessions: 0, crashFreeSessions: null });

    const newest = (await releaseDetailTool.execute(scope, releaseDetailTool.input.parse({}))) as { version: string };
    expect(newest.version).toBe("app@1.1.0");
    const one = (await releaseDetailTool.execute(scope, releaseDetailTool.input.parse({ version: "app@1.0.0" }))) as {
      health: { crashFreeSessions: number };
      healthByDay: unknown[];
      newIssues: { title: string }[];
      commits: { message: string; author: string }[];
    };
    expect(one.health.crashFreeSessions).toBe(95);
    expect(one.healthByDay).toHaveLength(14);
    expect(one.newIssues.map((issue) => issue.title)).toEqual([expect.stringMatching(/^RoundingError/)]);
    expect(one.commits).toEqual([{ commitId: "f".repeat(40), message: "Fix rounding", author: "Ada", files: 0 }]);
  });

  it("never reads another organization's release", async () => {
    const error = await releaseDetailTool.execute(scope, releaseDetailTool.input.parse({ version: "b-secret@9.0.0" })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("NOT_FOUND");
    const crossed = await listReleasesTool.execute({ ...scope, projectId: b.project.id }, {}).catch((caught: unknown) => caught);
    expect((crossed as AppError).message).toBe("Project not found");
  });

  it("answers over MCP in the token's organization only", async () => {
    const created = await a.session.mutation("apiToken.create", { name: "assistant", scopes: ["event:read"] });
    const client = new Client({ name: "release-tools", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL("/api/mcp", server.url), { requestInit: { headers: { authorization: `Bearer ${created.data.secret}` } } }),
    );
    try {
      const text = (result: unknown) => (result as { content: { text: string }[] }).content.map((part) => part.text).join("\n");
      const listed = await client.callTool({ name: "listReleases", arguments: { projectId: a.project.id } });
      expect(JSON.parse(text(listed)).releases.map((release: { version: string }) => release.version)).toEqual(["app@1.1.0", "app@1.0.0"]);
      const detail = await client.callTool({ name: "getRelease", arguments: { projectId: a.project.id, version: "app@1.0.0" } });
      expect(JSON.parse(text(detail)).health.sessions).toBe(40);
      const foreign = (await client.callTool({ name: "getRelease", arguments: { projectId: b.project.id, version: "b-secret@9.0.0" } })) as {
        isError?: boolean;
      };
      expect(foreign.isError).toBe(true);
      expect(text(foreign)).toMatch(/not found/i);
    } finally {
      await client.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { createTriageProject, daysAgo, hoursAgo, issueByType, sendEvent, sendEvents, triageTenant, utcDay } from "../../../test/helpers/triage-seed";

describe("project overview", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("answers every project of the active organization with a 14-day chart and its newest open issues", async () => {
    const tenant = await triageTenant(server, "Overview");
    const quiet = await createTriageProject(tenant.session, "Quiet");
    const types = ["A", "B", "C", "D", "E", "F", "G"].map((letter) => `${letter}Error`);
    await sendEvents(
      server,
      tenant.project,
      types.map((type, n) => ({ type, value: "x", fn: `fn${n}`, timestamp: hoursAgo(n + 1) })),
    );
    await sendEvent(server, tenant.project, { type: "OldError", value: "x", fn: "old", timestamp: daysAgo(20) });
    const resolved = await issueByType(tenant.session, tenant.project.id, "AError");
    await tenant.session.mutation("issue.setStatus", { projectId: tenant.project.id, issueId: resolved.id, status: "RESOLVED" });
    const stranger = await triageTenant(server, "Stranger");
    await sendEvent(server, stranger.project, { type: "StrangerError", value: "x", fn: "x" });

    const { data, error } = await tenant.session.query("project.overview");
    expect(error).toBeUndefined();
    expect(data.map((entry: { projectId: string }) => entry.projectId).sort()).toEqual([tenant.project.id, quiet.id].sort());
    const busy = data.find((entry: { projectId: string }) => entry.projectId === tenant.project.id);
    expect(busy.daily).toHaveLength(14);
    expect(busy.daily[0].date).toBe(utcDay(daysAgo(13)));
    expect(busy.daily[13].date).toBe(utcDay(new Date()));
    expect(busy.daily.reduce((total: number, day: { count: number }) => total + day.count, 0)).toBe(7);
    expect(busy.topIssues.map((issue: { title: string }) => issue.title.split(":")[0])).toEqual(["BError", "CError", "DError", "EError", "FError"]);
    const empty = data.find((entry: { projectId: string }) => entry.projectId === quiet.id);
    expect(empty.topIssues).toEqual([]);
    expect(empty.daily.every((day: { count: number }) => day.count === 0)).toBe(true);
    expect(JSON.stringify(data)).not.toContain("StrangerError");
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProjectOverview } from "../../shared/triage.views";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { daysAgo, hoursAgo, issueByType, sendEvent, sendEvents, triageTenant, type TestEvent } from "../../../test/helpers/triage-seed";

/**
 * Issue 14 item 16: the dashboard offers both orderings of a project's top issues: the newest
 * open issues, and the open issues with the most exceptions in the 14-day window.
 */
describe("project overview: most frequent open issues", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("ranks open issues by their exceptions in the window, apart from the newest", async () => {
    const tenant = await triageTenant(server, "Frequent");
    const repeat = (event: TestEvent, times: number) => Array.from({ length: times }, () => event);
    await sendEvents(server, tenant.project, [
      ...repeat({ type: "BusyError", value: "x", fn: "busy", timestamp: hoursAgo(30) }, 6),
      ...repeat({ type: "SteadyError", value: "x", fn: "steady", timestamp: hoursAgo(20) }, 4),
      ...repeat({ type: "FixedError", value: "x", fn: "fixed", timestamp: hoursAgo(10) }, 8),
      // Busy long ago: 9 exceptions, but only 1 inside the 14 days.
      ...repeat({ type: "AncientError", value: "x", fn: "ancient", timestamp: daysAgo(20) }, 9),
      { type: "AncientError", value: "x", fn: "ancient", timestamp: daysAgo(2) },
      { type: "FreshError", value: "x", fn: "fresh", timestamp: hoursAgo(1) },
    ]);
    const fixed = await issueByType(tenant.session, tenant.project.id, "FixedError");
    await tenant.session.mutation("issue.setStatus", { projectId: tenant.project.id, issueId: fixed.id, status: "RESOLVED" });
    const other = await triageTenant(server, "Frequent Other");
    await sendEvent(server, other.project, { type: "ForeignBusyError", value: "x", fn: "x" });

    const { data, error } = await tenant.session.query("project.overview");
    expect(error).toBeUndefined();
    const overview = (data as ProjectOverview[]).find((entry) => entry.projectId === tenant.project.id)!;
    const names = (issues: { title: string }[]) => issues.map((issue) => issue.title.split(":")[0]);
    expect(names(overview.frequentIssues)).toEqual(["BusyError", "SteadyError", "FreshError", "AncientError"]);
    expect(overview.frequentIssues.map((issue) => issue.windowCount)).toEqual([6, 4, 1, 1]);
    // A tie in the window goes to the more recently seen; the all-time count plays no part.
    expect(overview.frequentIssues[3].eventCount).toBe(10);
    // The newest ordering is still there, and differs.
    expect(names(overview.topIssues)).toEqual(["FreshError", "SteadyError", "BusyError", "AncientError"]);
    expect(JSON.stringify(data)).not.toContain("ForeignBusyError");
  });
});

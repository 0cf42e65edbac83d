import { describe, expect, it } from "vitest";
import { SessionOutcome, type SessionAggregate, type SessionUpdate } from "./session-item";
import { sumReleaseHealth, type ReleaseHealthRow } from "./release-health-sums";

const where = { organizationId: "org", projectId: "p1", release: "r1", environment: "", hour: "2026-11-28T13:00:00.000Z", day: "2026-11-28" };
const update = (sessionId: string, init: boolean, outcome: SessionOutcome, userKey: string | null = null): ReleaseHealthRow =>
  ({
    ...where,
    kind: "session",
    sessionId,
    init,
    outcome,
    userKey,
  }) satisfies SessionUpdate & { organizationId: string; projectId: string };
const aggregate = (counts: Partial<SessionAggregate>): ReleaseHealthRow => ({
  ...where,
  kind: "aggregate",
  exited: 0,
  errored: 0,
  abnormal: 0,
  crashed: 0,
  userKey: null,
  ...counts,
});

describe("sumReleaseHealth", () => {
  it("counts a session started on its init update only, whatever the number of updates", () => {
    const sums = sumReleaseHealth([update("a", true, SessionOutcome.none), update("a", false, SessionOutcome.none), update("b", true, SessionOutcome.none)]);
    expect(sums.hourly).toEqual([
      { organization_id: "org", project_id: "p1", release: "r1", environment: "", hour: where.hour, sessions: 2, errored: 0, abnormal: 0, crashed: 0 },
    ]);
    expect(sums.outcomes).toEqual([]);
  });

  it("keeps one outcome per session, its worst (crashed > abnormal > errored), for the statement to place", () => {
    const sums = sumReleaseHealth([
      update("a", true, SessionOutcome.errored),
      update("a", false, SessionOutcome.crashed),
      update("a", false, SessionOutcome.errored),
      update("b", false, SessionOutcome.abnormal),
      update("b", false, SessionOutcome.errored),
    ]);
    expect(sums.outcomes.map((row) => [row.session_id, row.outcome])).toEqual([
      ["a", SessionOutcome.crashed],
      ["b", SessionOutcome.abnormal],
    ]);
    // Outcomes are not summed here: the statement moves them against what earlier batches counted.
    expect(sums.hourly[0]).toMatchObject({ sessions: 1, errored: 0, crashed: 0, abnormal: 0 });
  });

  it("adds aggregates as sent: started = exited + errored + abnormal + crashed", () => {
    const sums = sumReleaseHealth([
      aggregate({ exited: 5, errored: 2, crashed: 1 }),
      aggregate({ exited: 1, abnormal: 1 }),
      update("x", true, SessionOutcome.none),
    ]);
    expect(sums.hourly[0]).toMatchObject({ sessions: 11, errored: 2, abnormal: 1, crashed: 1 });
  });

  it("notes each user once per release, environment and day, crashed if any of their sessions crashed", () => {
    const sums = sumReleaseHealth([
      update("a", true, SessionOutcome.none, "u1"),
      update("b", true, SessionOutcome.none, "u1"),
      update("b", false, SessionOutcome.crashed, "u1"),
      update("c", true, SessionOutcome.errored, "u2"),
      aggregate({ exited: 1, userKey: "u3" }),
    ]);
    expect(sums.users.map((row) => [row.user_key, row.crashed])).toEqual([
      ["u1", true],
      ["u2", false],
      ["u3", false],
    ]);
  });

  it("keeps environments and hours apart", () => {
    const sums = sumReleaseHealth([
      update("a", true, SessionOutcome.none),
      { ...update("b", true, SessionOutcome.none), environment: "staging" },
      { ...update("c", true, SessionOutcome.none), hour: "2026-11-28T14:00:00.000Z" },
    ]);
    expect(sums.hourly.map((row) => [row.environment, row.hour, row.sessions])).toEqual([
      ["", "2026-11-28T13:00:00.000Z", 1],
      ["", "2026-11-28T14:00:00.000Z", 1],
      ["staging", "2026-11-28T13:00:00.000Z", 1],
    ]);
  });
});

import { describe, expect, it } from "vitest";
import { ISSUE_STATUSES } from "../../shared/triage.inputs";
import { afterNewEvent, canTransition, INITIAL_STATUS, severityForLevel, statusChange, statusesMovableTo, STATUS_TRANSITIONS } from "./issue-state";

describe("issue state machine", () => {
  it("starts OPEN and lets a user move between any two different statuses", () => {
    expect(INITIAL_STATUS).toBe("OPEN");
    for (const from of ISSUE_STATUSES) {
      for (const to of ISSUE_STATUSES) expect(canTransition(from, to), `${from} → ${to}`).toBe(from !== to);
    }
    expect(Object.keys(STATUS_TRANSITIONS).sort()).toEqual([...ISSUE_STATUSES].sort());
    expect(statusesMovableTo("RESOLVED")).toEqual(["OPEN", "IGNORED"]);
  });

  it("stamps the resolution time and clears the regression mark only when resolving", () => {
    const now = new Date("2026-11-25T00:00:00Z");
    const none = { resolvedInRelease: null, resolvedInNextRelease: false };
    expect(statusChange("RESOLVED", now)).toEqual({ status: "RESOLVED", resolvedAt: now, isRegression: false, ...none });
    expect(statusChange("OPEN", now)).toEqual({ status: "OPEN", resolvedAt: null, ...none });
    expect(statusChange("IGNORED", now)).toEqual({ status: "IGNORED", resolvedAt: null, ...none });
  });

  it("sets a release resolution only when resolving, and every other change clears it", () => {
    const now = new Date("2026-11-25T00:00:00Z");
    const inNext = { resolvedInRelease: "1.1.0", resolvedInNextRelease: true };
    expect(statusChange("RESOLVED", now, inNext)).toEqual({ status: "RESOLVED", resolvedAt: now, isRegression: false, ...inNext });
    expect(statusChange("OPEN", now, inNext)).toMatchObject({ resolvedInRelease: null, resolvedInNextRelease: false });
    expect(statusChange("IGNORED", now, inNext)).toMatchObject({ resolvedInRelease: null, resolvedInNextRelease: false });
  });

  it("reopens a RESOLVED issue as a regression on a new event and leaves the others alone", () => {
    const resolvedAt = new Date("2026-11-24T12:00:00Z");
    expect(afterNewEvent({ status: "RESOLVED", resolvedAt, isRegression: false })).toEqual({
      status: "OPEN",
      resolvedAt: null,
      isRegression: true,
      regressed: true,
    });
    expect(afterNewEvent({ status: "IGNORED", resolvedAt: null, isRegression: false })).toEqual({
      status: "IGNORED",
      resolvedAt: null,
      isRegression: false,
      regressed: false,
    });
    expect(afterNewEvent({ status: "OPEN", resolvedAt: null, isRegression: true })).toMatchObject({ status: "OPEN", isRegression: true, regressed: false });
    // An event of a release that predates the one it was resolved in keeps it resolved.
    expect(afterNewEvent({ status: "RESOLVED", resolvedAt, isRegression: false }, true)).toEqual({
      status: "RESOLVED",
      resolvedAt,
      isRegression: false,
      regressed: false,
    });
  });

  it("derives a new issue's severity from the level, LOW for anything else", () => {
    expect(["fatal", "error", "warning", "info", "debug"].map(severityForLevel)).toEqual(["CRITICAL", "HIGH", "MEDIUM", "LOW", "LOW"]);
    expect(severityForLevel("constructor")).toBe("LOW");
    expect(severityForLevel("__proto__")).toBe("LOW");
  });
});

import { describe, expect, it } from "vitest";
import { passesFilters, reasonForFact } from "./alert-filters";
import type { AlertIssue } from "./alert-subject";

const issue: AlertIssue = {
  id: "00000000-0000-4000-8000-000000000001",
  projectId: "00000000-0000-4000-8000-000000000002",
  title: "TypeError: Cannot read properties of undefined",
  culprit: "checkout(src/cart.ts)",
  level: "error",
  status: "OPEN",
  eventCount: 3,
  userCount: 1,
  firstSeen: new Date(),
  lastSeen: new Date(),
  environment: "production",
  release: "1.2.3",
  topFrame: null,
  tags: { region: "eu", browser: "firefox" },
  environments: ["production"],
};

describe("passesFilters", () => {
  it("passes with no filters", () => expect(passesFilters({}, issue)).toBe(true));
  it("matches environment buckets", () => {
    expect(passesFilters({ environments: ["PRODUCTION"] }, issue)).toBe(true);
    expect(passesFilters({ environments: ["STAGING", "DEVELOPMENT"] }, issue)).toBe(false);
  });
  it("compares levels", () => {
    expect(passesFilters({ minLevel: "warning" }, issue)).toBe(true);
    expect(passesFilters({ minLevel: "error" }, issue)).toBe(true);
    expect(passesFilters({ minLevel: "fatal" }, issue)).toBe(false);
  });
  it("searches title and culprit, case-insensitively", () => {
    expect(passesFilters({ textContains: "typeerror" }, issue)).toBe(true);
    expect(passesFilters({ textContains: "CART.TS" }, issue)).toBe(true);
    expect(passesFilters({ textContains: "payment" }, issue)).toBe(false);
  });
  it("requires every tag", () => {
    expect(passesFilters({ tags: [{ key: "region", value: "eu" }] }, issue)).toBe(true);
    expect(
      passesFilters(
        {
          tags: [
            { key: "region", value: "eu" },
            { key: "browser", value: "chrome" },
          ],
        },
        issue,
      ),
    ).toBe(false);
    expect(passesFilters({ tags: [{ key: "constructor", value: "x" }] }, issue)).toBe(false);
  });
});

describe("reasonForFact", () => {
  it("new_issue fires on new issues, and on regressions only when asked", () => {
    expect(reasonForFact({ type: "new_issue" }, "new", issue)).toBe("new_issue");
    expect(reasonForFact({ type: "new_issue" }, "regression", issue)).toBeNull();
    expect(reasonForFact({ type: "new_issue", includeRegressions: true }, "regression", issue)).toBe("regression");
  });
  it("regression fires on regressions only", () => {
    expect(reasonForFact({ type: "regression" }, "new", issue)).toBeNull();
    expect(reasonForFact({ type: "regression" }, "regression", issue)).toBe("regression");
  });
  it("level fires at or above the level", () => {
    expect(reasonForFact({ type: "level", level: "error" }, "new", issue)).toBe("level");
    expect(reasonForFact({ type: "level", level: "fatal" }, "new", issue)).toBeNull();
  });
  it("frequency triggers are not fact-driven", () => {
    expect(reasonForFact({ type: "issue_frequency", count: 1, minutes: 1 }, "new", issue)).toBeNull();
  });
});

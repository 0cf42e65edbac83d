import { describe, expect, it } from "vitest";
import { canManageProjects, canTriageIssues, parseRoles } from "./roles";

describe("organization roles", () => {
  it("parse a comma-separated role column, ignoring blanks and spaces", () => {
    expect(parseRoles(" admin , member,,")).toEqual(["admin", "member"]);
    expect(parseRoles("")).toEqual([]);
    expect(parseRoles(null)).toEqual([]);
    expect(parseRoles(undefined)).toEqual([]);
  });

  it("let owners and admins manage projects, any one of several roles sufficing", () => {
    expect(["owner", "admin", "member,admin", " owner "].map(canManageProjects)).toEqual([true, true, true, true]);
    expect(["member", "", null, "auditor", "owners", "Admin"].map(canManageProjects)).toEqual([false, false, false, false, false, false]);
  });

  it("let every role of the table triage, and nothing outside it", () => {
    expect(["owner", "admin", "member", "auditor,member"].map(canTriageIssues)).toEqual([true, true, true, true]);
    expect(["auditor", "", null, "constructor"].map(canTriageIssues)).toEqual([false, false, false, false]);
  });
});

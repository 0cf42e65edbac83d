import { describe, expect, it } from "vitest";
import { parseRoles } from "./roles";

describe("organization roles", () => {
  it("parse a comma-separated role column, ignoring blanks and spaces", () => {
    expect(parseRoles(" admin , member,,")).toEqual(["admin", "member"]);
    expect(parseRoles("")).toEqual([]);
    expect(parseRoles(null)).toEqual([]);
    expect(parseRoles(undefined)).toEqual([]);
  });
});

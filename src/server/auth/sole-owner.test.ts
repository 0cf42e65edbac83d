import { describe, expect, it } from "vitest";
import { soleOwnerMessage } from "./sole-owner";

describe("the sole-owner refusal", () => {
  it("names the organizations, at most three, each shortened", () => {
    expect(soleOwnerMessage([{ name: "Acme" }])).toBe(
      "You are the only owner of Acme. Transfer ownership to another member or delete the organization before deleting your account.",
    );
    expect(soleOwnerMessage([{ name: "A" }, { name: "B" }, { name: "C" }, { name: "D" }, { name: "E" }])).toBe(
      "You are the only owner of A, B, C and 2 more. Transfer ownership to another member or delete these organizations before deleting your account.",
    );
    expect(soleOwnerMessage([{ name: "x".repeat(2_000_000) }])).toHaveLength(
      "You are the only owner of . Transfer ownership to another member or delete the organization before deleting your account.".length + 61,
    );
  });
});

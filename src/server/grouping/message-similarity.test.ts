import { describe, expect, it } from "vitest";
import { messageSimilarity } from "./message-similarity";

describe("messageSimilarity", () => {
  it("scores the overlap of two templates' words", () => {
    expect(messageSimilarity("Order <num> has no items", "Order <num> has no items")).toBe(1);
    expect(messageSimilarity("Order <num> has no items", "Order <num> has no lines")).toBeCloseTo(4 / 6);
    expect(messageSimilarity("disk full", "Order <num> not found")).toBe(0);
    expect(messageSimilarity(null, "x")).toBe(0);
  });
});

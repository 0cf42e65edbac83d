import { describe, expect, it } from "vitest";
import { occurrenceTags } from "./occurrence-tags";

describe("an exception's tags", () => {
  it("are the filterable fields, then the SDK event's own tags", () => {
    expect(
      occurrenceTags({ environment: "staging", release: "shop@2.0.0", level: "error", serverName: "web-1", handled: false, tags: { region: "eu" } }),
    ).toEqual({ environment: "staging", release: "shop@2.0.0", level: "error", server_name: "web-1", handled: "no", region: "eu" });
    expect(Object.keys(occurrenceTags({ level: "info", handled: true, tags: { a: "1" } }))).toEqual(["level", "handled", "a"]);
  });

  it("read a document stored before a field existed, and stop at 50", () => {
    expect(occurrenceTags({ level: "warning" })).toEqual({ level: "warning" });
    const many = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`k${i}`, "v"]));
    expect(Object.keys(occurrenceTags({ level: "error", tags: many }))).toHaveLength(50);
  });
});

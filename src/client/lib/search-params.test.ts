import { describe, expect, it } from "vitest";
import { nextSort, sortParam } from "./search-params";

describe("sort search param", () => {
  const sort = sortParam(["lastSeen", "eventCount"], "lastSeen:DESC");

  it("keeps any sort the API accepts, and falls back to the default otherwise", () => {
    expect(sort.parse("eventCount:ASC,lastSeen:DESC")).toBe("eventCount:ASC,lastSeen:DESC");
    expect(sort.parse("eventCount:desc")).toBe("eventCount:desc");
    expect(sort.parse(undefined)).toBe("lastSeen:DESC");
    expect(sort.parse("")).toBe("lastSeen:DESC");
    expect(sort.parse("bogus:DESC")).toBe("lastSeen:DESC");
    expect(sort.parse("eventCount:up")).toBe("lastSeen:DESC");
    expect(sort.parse(42)).toBe("lastSeen:DESC");
  });

  it("flips the same column and starts another with its first direction, reading the direction as the API does", () => {
    expect(nextSort("eventCount:desc", "eventCount")).toBe("eventCount:ASC");
    expect(nextSort("eventCount:DESC", "lastSeen")).toBe("lastSeen:DESC");
    expect(nextSort("eventCount", "eventCount")).toBe("eventCount:DESC");
    expect(nextSort("lastSeen:DESC", "title", "ASC")).toBe("title:ASC");
  });
});

import { describe, expect, it } from "vitest";
import { parseSort, primarySort, sortInput } from "./sort";

const FIELDS = ["lastSeen", "eventCount", "title"] as const;

describe("sort syntax", () => {
  it("parses several field:DIR keys, any case, ASC by default, blank parts skipped", () => {
    expect(parseSort("eventCount:DESC, title ,lastSeen:asc,", FIELDS)).toEqual({
      keys: [
        { field: "eventCount", direction: "DESC" },
        { field: "title", direction: "ASC" },
        { field: "lastSeen", direction: "ASC" },
      ],
    });
    expect(parseSort("", FIELDS)).toEqual({ keys: [] });
  });

  it("refuses an unknown field naming the allowed ones, and an unknown direction", () => {
    expect(parseSort("bogus:DESC", FIELDS)).toEqual({ error: 'Unknown sort field "bogus". Allowed: lastSeen, eventCount, title' });
    expect(parseSort("title:sideways", FIELDS)).toEqual({ error: 'Sort direction must be ASC or DESC, not "sideways"' });
    expect(parseSort("constructor", FIELDS)).toHaveProperty("error");
  });

  it("reads the primary key of any sort string", () => {
    expect(primarySort("eventCount:desc,title:ASC")).toEqual({ field: "eventCount", direction: "DESC" });
    expect(primarySort(" title ")).toEqual({ field: "title", direction: "ASC" });
    expect(primarySort("title:nonsense")).toEqual({ field: "title", direction: "ASC" });
  });

  it("is the API's zod input, with its default and the parser's message", () => {
    const input = sortInput(FIELDS, "lastSeen:DESC");
    expect(input.parse(undefined)).toEqual([{ field: "lastSeen", direction: "DESC" }]);
    expect(input.parse("title:desc")).toEqual([{ field: "title", direction: "DESC" }]);
    const refused = input.safeParse("bogus");
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0].message).toBe('Unknown sort field "bogus". Allowed: lastSeen, eventCount, title');
  });
});

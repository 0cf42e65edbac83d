import { describe, expect, it } from "vitest";
import { TagCountBuffer } from "./tag-count-buffer";

describe("TagCountBuffer", () => {
  const clock = (start = 0) => {
    let now = start;
    return { now: () => now, advance: (ms: number) => (now += ms) };
  };

  it("sums counts per (issue, key, value) until taken", () => {
    const time = clock();
    const buffer = new TagCountBuffer(1000, 100, time.now);
    buffer.add("org", "project", "issue-1", { browser: "Chrome", level: "error" });
    buffer.add("org", "project", "issue-1", { browser: "Chrome" });
    buffer.add("org", "project", "issue-2", { browser: "Chrome" });
    buffer.add("org", "project", "issue-1", { browser: "Firefox" }, 3);
    expect(buffer.size).toBe(4);
    const rows = buffer.take();
    const count = (issue: string, key: string, value: string) => rows.find((row) => row.issue_id === issue && row.key === key && row.value === value)?.count;
    expect(count("issue-1", "browser", "Chrome")).toBe(2);
    expect(count("issue-1", "level", "error")).toBe(1);
    expect(count("issue-2", "browser", "Chrome")).toBe(1);
    expect(count("issue-1", "browser", "Firefox")).toBe(3);
    expect(buffer.size).toBe(0);
  });

  it("keeps keys and values apart whatever characters they hold", () => {
    const buffer = new TagCountBuffer(1000);
    for (const [key, value] of [
      ["ab", "c"],
      ["a", "bc"],
      ["a:1:b", "c"],
      ["a", ":1:bc"],
      ["a\u0000b", "c"],
      ["a", "\u0000bc"],
    ]) {
      buffer.add("org", "project", "issue", { [key]: value });
    }
    expect(buffer.size).toBe(6);
  });

  it("is due once flushMs has passed since the last flush, never when empty", () => {
    const time = clock();
    const buffer = new TagCountBuffer(1000, 100, time.now);
    time.advance(5000);
    expect(buffer.isDue()).toBe(false);
    buffer.add("org", "project", "issue", { level: "error" });
    expect(buffer.isDue()).toBe(true);
    buffer.take();
    buffer.add("org", "project", "issue", { level: "error" });
    expect(buffer.isDue()).toBe(false);
    expect(buffer.msUntilDue()).toBe(1000);
    time.advance(999);
    expect(buffer.isDue()).toBe(false);
    expect(buffer.isDue(true)).toBe(true);
    time.advance(1);
    expect(buffer.isDue()).toBe(true);
  });

  it("is due at once when it holds maxRows distinct triples (bounded memory)", () => {
    const buffer = new TagCountBuffer(60_000, 3, clock().now);
    buffer.add("org", "project", "issue", { a: "1", b: "1" });
    expect(buffer.isDue()).toBe(false);
    buffer.add("org", "project", "issue", { c: "1" });
    expect(buffer.isDue()).toBe(true);
  });

  it("merges rows put back after a failed flush with those counted since", () => {
    const buffer = new TagCountBuffer(1000);
    buffer.add("org", "project", "issue", { level: "error" }, 2);
    const failed = buffer.take();
    buffer.add("org", "project", "issue", { level: "error" });
    buffer.putBack(failed);
    expect(buffer.take()).toEqual([{ organization_id: "org", project_id: "project", issue_id: "issue", key: "level", value: "error", count: 3 }]);
  });
});

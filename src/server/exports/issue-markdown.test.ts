import { describe, expect, it } from "vitest";
import type { ExportedOccurrence, IssueExport } from "../../shared/export.views";
import { MAX_MARKDOWN_CHARS, renderIssueMarkdown } from "./issue-markdown";
import { fenced, inline } from "./markdown-text";

const frame = (fn: string, contextLine: string | null = null) => ({
  filename: "/app/a.js",
  absPath: null,
  function: fn,
  module: null,
  lineno: 1,
  colno: 2,
  inApp: true,
  contextLine,
  preContext: [],
  postContext: [],
  instructionAddr: null,
  package: null,
  symbolication: null,
  raw: null,
});

const occurrence = (id: number, message: string | null = null, context: string | null = null): ExportedOccurrence => ({
  id: `00000000-0000-4000-8000-${String(id).padStart(12, "0")}`,
  eventId: String(id).padStart(32, "0"),
  timestamp: new Date("2026-11-28T10:00:00Z"),
  receivedAt: new Date("2026-11-28T10:00:00Z"),
  environment: "production",
  release: null,
  level: "error",
  platform: "node",
  message,
  exceptions: [{ type: "TypeError", value: "x is undefined", module: null, mechanism: null, frames: [frame("outer"), frame("inner", context)] }],
  stacktrace: [],
  request: null,
  user: null,
  tags: [{ key: "browser", value: "a|b" }],
  breadcrumbs: [],
  breadcrumbsOmitted: 0,
});

const document = (occurrences: ExportedOccurrence[], title = "TypeError: x is undefined"): IssueExport => ({
  exportedAt: new Date("2026-11-28T12:00:00Z"),
  url: "http://localhost:3000/dashboard/issues/i?projectId=p",
  limit: occurrences.length,
  occurrences,
  issue: {
    id: "00000000-0000-4000-8000-000000000001",
    projectId: "00000000-0000-4000-8000-000000000002",
    title,
    culprit: "inner",
    level: "error",
    platform: "node",
    status: "OPEN",
    severity: "HIGH",
    isRegression: false,
    firstSeen: new Date("2026-11-01T00:00:00Z"),
    lastSeen: new Date("2026-11-28T10:00:00Z"),
    eventCount: occurrences.length,
    userCount: 0,
    environments: ["production"],
    firstRelease: null,
    lastRelease: null,
    resolvedInRelease: null,
    resolvedInNextRelease: false,
    releases: [],
    resolvedAt: null,
    groupingVersion: 2,
    latestExceptionId: null,
    tags: [],
  },
});

describe("issue markdown", () => {
  it("fences text with a fence longer than any backtick run in it, so event data cannot close it", () => {
    expect(fenced("plain")).toBe("```text\nplain\n```");
    expect(fenced("a ``` b ```` c")).toBe("`````text\na ``` b ```` c\n`````");
  });

  it("keeps event text inline: one line, Markdown's characters escaped", () => {
    expect(inline("# Title\n| x | *y*")).toBe("\\# Title \\| x \\| \\*y\\*");
  });

  it("renders the stack newest call first, and escapes a hostile title and tag", () => {
    const markdown = renderIssueMarkdown(document([occurrence(1, null, "```\n# injected")], "# <script>`x`"));
    expect(markdown.startsWith("# \\# \\<script\\>\\`x\\`\n")).toBe(true);
    expect(markdown.indexOf("at inner")).toBeLessThan(markdown.indexOf("at outer"));
    // The context line's backticks sit inside a longer fence.
    expect(markdown).toContain("````text\n  at inner (/app/a.js:1:2)\n      > ```");
    expect(markdown).toContain("| browser | a\\|b |");
  });

  it("stays under its size bound by leaving out older occurrences, and says so", () => {
    const big = Array.from({ length: 30 }, (_, i) => occurrence(i, "m".repeat(1_900)));
    const huge = big.map((entry) => ({
      ...entry,
      exceptions: entry.exceptions.map((e) => ({ ...e, frames: Array.from({ length: 40 }, () => frame("f", "c".repeat(250))) })),
    }));
    const markdown = renderIssueMarkdown(document(huge));
    expect(markdown.length).toBeLessThanOrEqual(MAX_MARKDOWN_CHARS + 1);
    const shown = markdown.match(/^### \d+\. Event /gm)!.length;
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(30);
    expect(markdown).toContain(`_${30 - shown} more occurrence(s) were left out`);
  });
});

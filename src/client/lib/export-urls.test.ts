import { describe, expect, it } from "vitest";
import { ExportIssuesCsvInput } from "@/shared/export.inputs";
import { issueExportUrl, issuesCsvUrl } from "./export-urls";

const ORG = "org_1";
const PROJECT = "00000000-0000-4000-8000-000000000002";

describe("export urls", () => {
  it("names the issue export with its format, and download only when asked", () => {
    expect(issueExportUrl(ORG, PROJECT, "i-1", "markdown", false)).toBe(`/api/v1/organizations/org_1/projects/${PROJECT}/issues/i-1/export?format=markdown`);
    expect(issueExportUrl(ORG, PROJECT, "i-1", "json", true)).toBe(`/api/v1/organizations/org_1/projects/${PROJECT}/issues/i-1/export?format=json&download=1`);
  });

  it("carries the list's filters so the server parses them back to the same input, paging left out", () => {
    const dateFrom = new Date("2026-11-01T00:00:00.000Z");
    const url = issuesCsvUrl(ORG, {
      projectId: PROJECT,
      page: 3,
      size: 25,
      sort: "eventCount:DESC",
      status: ["OPEN"],
      environments: ["PRODUCTION", "STAGING"],
      dateFrom,
      query: "checkout, cart",
    });
    const parsed = new URL(url, "http://localhost");
    expect(parsed.pathname).toBe(`/api/v1/organizations/org_1/projects/${PROJECT}/issues/export`);
    expect(parsed.searchParams.has("page")).toBe(false);
    const input = ExportIssuesCsvInput.parse({ ...Object.fromEntries(parsed.searchParams), projectId: PROJECT });
    expect(input).toMatchObject({
      format: "csv",
      sort: [{ field: "eventCount", direction: "DESC" }],
      status: ["OPEN"],
      environments: ["PRODUCTION", "STAGING"],
      dateFrom,
      query: "checkout, cart",
    });
  });
});

import type { ExportIssuesCsvInputRaw, IssueExportFormat } from "@/shared/export.inputs";

// The export routes answer files (CSV, Markdown), which tRPC does not carry: the screens call the
// REST routes, which accept the session cookie like every /api/v1 route.

const projectBase = (organizationId: string, projectId: string) =>
  `/api/v1/organizations/${encodeURIComponent(organizationId)}/projects/${encodeURIComponent(projectId)}`;

/** `GET …/issues/{issueId}/export`: `download` answers it as an attachment, otherwise inline (for the clipboard). */
export function issueExportUrl(organizationId: string, projectId: string, issueId: string, format: IssueExportFormat, download: boolean): string {
  const query = new URLSearchParams({ format, ...(download ? { download: "1" } : {}) });
  return `${projectBase(organizationId, projectId)}/issues/${encodeURIComponent(issueId)}/export?${query}`;
}

/** `GET …/issues/export?format=csv` with the list's own filters (the list's tRPC input, less paging). */
export function issuesCsvUrl(organizationId: string, input: ExportIssuesCsvInputRaw & { page?: unknown; size?: unknown }): string {
  const { projectId, page: _page, size: _size, ...filters } = input;
  const query = new URLSearchParams({ format: "csv" });
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined || value === null || value === "" || key === "format") continue;
    if (Array.isArray(value)) query.set(key, value.map(String).join(","));
    else query.set(key, value instanceof Date ? value.toISOString() : String(value));
  }
  return `${projectBase(organizationId, projectId)}/issues/export?${query}`;
}

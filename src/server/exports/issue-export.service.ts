import type { ExportIssueInput } from "../../shared/export.inputs";
import type { IssueExport } from "../../shared/export.views";
import type { ServiceContext } from "../context";
import { getIssue } from "../issues/issue.service";
import { toExportedOccurrence } from "./exported-occurrence";
import { selectLatestOccurrences } from "./issue-export.queries";

/** The issue's screen in Faultline (the alert messages link the same way). */
export const issueUrl = (apiUrl: string, projectId: string, issueId: string) =>
  `${apiUrl.replace(/\/$/, "")}/dashboard/issues/${issueId}?projectId=${projectId}`;

/**
 * An issue with its newest `limit` occurrences. Tenancy is getIssue's: another organization's
 * project or issue is NOT_FOUND before any occurrence is read. Reading needs only membership, as
 * the issue screen does.
 */
export async function exportIssue(ctx: Pick<ServiceContext, "db" | "org" | "checkedProject" | "env">, input: ExportIssueInput): Promise<IssueExport> {
  const { activity: _activity, name: _name, ...issue } = await getIssue(ctx, input);
  const rows = await selectLatestOccurrences(ctx.db, ctx.org.organizationId, input.projectId, input.issueId, input.limit);
  return {
    exportedAt: new Date(),
    url: issueUrl(ctx.env.API_URL, input.projectId, input.issueId),
    issue,
    limit: input.limit,
    occurrences: rows.map(toExportedOccurrence),
  };
}

import { ExportIssueInput, ExportIssuesCsvInput, MAX_CSV_ROWS } from "../../shared/export.inputs";
import { IssueExport } from "../../shared/export.views";
import { TextDocumentView } from "../rest/openapi-views";
import { queryOf } from "../rest/input";
import { PROJECT_PATH, type RestRoute } from "../rest/rest-route";
import { streamIssueCsv } from "./issue-csv.service";
import { exportIssue } from "./issue-export.service";
import { renderIssueMarkdown } from "./issue-markdown";

const ISSUES = `${PROJECT_PATH}/issues`;
const tag = "Exports";

/** `issue-<first 8 of the id>.md`: ids only, so nothing an SDK sent reaches a header. */
const issueFilename = (issueId: string, extension: string) => `issue-${issueId.slice(0, 8)}.${extension}`;

/** Exports (issue 35): one issue with its latest occurrences, and the issue list as CSV. Reading them is reading issues: any member, or a token with event:read. */
export const exportRestRoutes: RestRoute[] = [
  {
    method: "get",
    path: `${ISSUES}/:issueId/export`,
    summary: "Export an issue with its latest occurrences (JSON, or Markdown for a ticket or an LLM)",
    tag,
    input: ExportIssueInput,
    output: IssueExport,
    mediaTypes: ["application/json", "text/markdown"],
    response: "The issue and its newest `limit` occurrences with their stack traces; `download=1` answers it as an attachment",
    access: "organization",
    tokenScope: "event:read",
    write: async (ctx, req, res) => {
      const input = ExportIssueInput.parse(queryOf(req));
      const document = await exportIssue(ctx, input);
      if (input.download) res.attachment(issueFilename(input.issueId, input.format === "json" ? "json" : "md"));
      if (input.format === "json") res.json(document);
      else res.type("text/markdown; charset=utf-8").send(renderIssueMarkdown(document));
    },
  },
  {
    method: "get",
    path: `${ISSUES}/export`,
    summary: `Export the issue list as CSV, with the list's filters and sort (at most ${MAX_CSV_ROWS.toLocaleString("en")} rows, streamed)`,
    tag,
    input: ExportIssuesCsvInput,
    output: TextDocumentView,
    mediaTypes: ["text/csv"],
    response: "One row per issue (RFC 4180; a cell starting with = + - @ is prefixed with ')",
    access: "organization",
    tokenScope: "event:read",
    write: (ctx, req, res) => {
      const input = ExportIssuesCsvInput.parse(queryOf(req));
      return streamIssueCsv(ctx, input, res, `issues-${input.projectId.slice(0, 8)}.csv`);
    },
  },
];

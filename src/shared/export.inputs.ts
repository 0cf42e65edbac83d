import { z } from "zod";
import { IssueScope, ListIssuesInput } from "./triage.inputs";

export const ISSUE_EXPORT_FORMATS = ["json", "markdown"] as const;
export type IssueExportFormat = (typeof ISSUE_EXPORT_FORMATS)[number];
/** An issue's export carries its latest occurrences: 10 unless asked, never more than 100 (each holds a whole stack trace). */
export const DEFAULT_EXPORT_OCCURRENCES = 10;
export const MAX_EXPORT_OCCURRENCES = 100;

/** `?download=1` answers the export as an attachment (Content-Disposition); without it the body is shown inline (copy to clipboard). */
const downloadFlag = z
  .enum(["0", "1", "true", "false"])
  .optional()
  .transform((value) => value === "1" || value === "true");

export const ExportIssueInput = IssueScope.extend({
  format: z.enum(ISSUE_EXPORT_FORMATS, "format must be json or markdown").default("json"),
  limit: z.coerce
    .number("limit must be a number")
    .int("limit must be a whole number")
    .min(1, `limit must be between 1 and ${MAX_EXPORT_OCCURRENCES}`)
    .max(MAX_EXPORT_OCCURRENCES, `limit must be between 1 and ${MAX_EXPORT_OCCURRENCES}`)
    .default(DEFAULT_EXPORT_OCCURRENCES),
  download: downloadFlag,
});
export type ExportIssueInput = z.infer<typeof ExportIssueInput>;

/**
 * The issue list's own filters and sort (ListIssuesInput, so the CSV holds exactly what the list
 * shows) without its paging: the export walks every page itself, up to MAX_CSV_ROWS.
 */
export const ExportIssuesCsvInput = ListIssuesInput.omit({ page: true, size: true }).extend({
  format: z.literal("csv", "format must be csv").default("csv"),
});
export type ExportIssuesCsvInput = z.infer<typeof ExportIssuesCsvInput>;
export type ExportIssuesCsvInputRaw = z.input<typeof ExportIssuesCsvInput>;

/** The most rows one CSV export holds; a bigger project is exported by narrowing the filters (dates, status). */
export const MAX_CSV_ROWS = 10_000;

import { once } from "node:events";
import type { Response } from "express";
import { MAX_CSV_ROWS, type ExportIssuesCsvInput } from "../../shared/export.inputs";
import type { ServiceContext } from "../context";
import { walkIssues } from "../issues/issue.service";
import { csvRow } from "./csv-writer";
import { issueUrl } from "./issue-export.service";

/** Rows read per query while streaming: the export never holds more than this many issues in memory. */
export const CSV_PAGE_SIZE = 500;

export const ISSUE_CSV_COLUMNS = [
  "id",
  "title",
  "culprit",
  "level",
  "status",
  "severity",
  "events",
  "users",
  "firstSeen",
  "lastSeen",
  "environments",
  "firstRelease",
  "lastRelease",
  "url",
] as const;

/**
 * The issue list's matches as CSV rows, in the list's order, a page at a time (at most
 * MAX_CSV_ROWS rows). The first page is read before anything is yielded, so a foreign project or a
 * bad filter fails as a plain error answer rather than a broken download.
 */
export async function* issueCsvChunks(ctx: Pick<ServiceContext, "db" | "org" | "checkedProject" | "env">, input: ExportIssuesCsvInput): AsyncGenerator<string> {
  const { format: _format, ...filter } = input;
  const pages = walkIssues(ctx, filter, CSV_PAGE_SIZE, MAX_CSV_ROWS);
  let next = await pages.next();
  yield csvRow([...ISSUE_CSV_COLUMNS]);
  while (!next.done) {
    yield next.value
      .map((issue) =>
        csvRow([
          issue.id,
          issue.title,
          issue.culprit,
          issue.level,
          issue.status,
          issue.severity,
          issue.eventCount,
          issue.userCount,
          issue.firstSeen,
          issue.lastSeen,
          issue.environments.join(" "),
          issue.firstRelease,
          issue.lastRelease,
          issueUrl(ctx.env.API_URL, input.projectId, issue.id),
        ]),
      )
      .join("");
    next = await pages.next();
  }
}

/**
 * Streams the CSV, waiting for the client when its buffer is full. A failure after the first bytes
 * cannot become an error answer any more: the connection is cut, so the download is visibly
 * incomplete rather than silently short.
 */
export async function streamIssueCsv(
  ctx: Pick<ServiceContext, "db" | "org" | "checkedProject" | "env">,
  input: ExportIssuesCsvInput,
  res: Response,
  filename: string,
) {
  const chunks = issueCsvChunks(ctx, input);
  // The header row is yielded only after the first page was read (see issueCsvChunks).
  const first = await chunks.next();
  res.status(200).type("text/csv; charset=utf-8").attachment(filename);
  try {
    if (!first.done) res.write(first.value);
    for await (const chunk of chunks) {
      if (res.destroyed) return;
      if (!res.write(chunk)) await Promise.race([once(res, "drain"), once(res, "close")]);
    }
    res.end();
  } catch (error) {
    res.destroy(error instanceof Error ? error : new Error(String(error)));
  }
}

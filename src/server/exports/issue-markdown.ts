import type { ExportedFrame, ExportedOccurrence, IssueExport } from "../../shared/export.views";
import { clip, fenced, inline, table } from "./markdown-text";

/**
 * The whole document stays under this many characters (about 25,000 tokens), so it pastes into an
 * LLM's context or a ticket: occurrences that would pass it are left out, and the document says so.
 */
export const MAX_MARKDOWN_CHARS = 100_000;
const MAX_MESSAGE = 2_000;
const MAX_CODE_LINE = 300;
/** Values shown per tag key in the issue's tag table. */
const TAG_VALUES = 5;

const iso = (date: Date) => date.toISOString();

/** A frame as one stack-trace line, newest call first as the exception screen shows it. */
function frameLines(frame: ExportedFrame): string[] {
  const where = [frame.filename ?? frame.absPath ?? frame.module ?? frame.package ?? "?", frame.lineno, frame.colno].filter((part) => part !== null).join(":");
  const name = frame.function ?? frame.instructionAddr ?? "?";
  const lines = [`  at ${name} (${where})${frame.inApp ? "" : " [library]"}`];
  if (frame.contextLine) lines.push(`      > ${clip(frame.contextLine.trim(), MAX_CODE_LINE)}`);
  if (frame.raw)
    lines.push(
      `      minified: ${frame.raw.function ?? "?"} (${[frame.raw.filename ?? "?", frame.raw.lineno, frame.raw.colno].filter((p) => p !== null).join(":")})`,
    );
  return lines;
}

const stackTrace = (frames: ExportedFrame[]) => fenced([...frames].reverse().flatMap(frameLines).join("\n"));

function occurrenceSection(occurrence: ExportedOccurrence, index: number): string {
  const parts: string[] = [`### ${index + 1}. Event ${occurrence.eventId} — ${iso(occurrence.timestamp)}`];
  parts.push(
    [
      `- **Environment:** ${inline(occurrence.environment ?? "none")}`,
      `- **Release:** ${inline(occurrence.release ?? "none")}`,
      `- **Level:** ${inline(occurrence.level)}`,
    ].join("\n"),
  );
  if (occurrence.message) parts.push(`**Message**\n\n${fenced(clip(occurrence.message, MAX_MESSAGE))}`);
  occurrence.exceptions.forEach((exception, position) => {
    const heading = `${position === 0 ? "Exception" : "Caused by"}: ${exception.type ?? "Error"}${exception.value ? `: ${exception.value}` : ""}`;
    const handled = exception.mechanism?.handled === false ? " (unhandled)" : "";
    parts.push(`#### ${inline(heading)}${handled}`);
    if (exception.frames.length) parts.push(stackTrace(exception.frames));
  });
  if (occurrence.stacktrace.length) parts.push(`#### Stack trace\n\n${stackTrace(occurrence.stacktrace)}`);
  if (occurrence.request) {
    const { method, url, query } = occurrence.request;
    parts.push(`#### Request\n\n${inline(`${method ?? "GET"} ${url ?? ""}${query ? `?${query}` : ""}`)}`);
  }
  if (occurrence.user) {
    const user = Object.entries(occurrence.user).filter(([, value]) => value !== null) as [string, string][];
    parts.push(`#### User\n\n${user.map(([key, value]) => `- **${key}:** ${inline(value)}`).join("\n")}`);
  }
  if (occurrence.tags.length)
    parts.push(
      `#### Tags\n\n${table(
        ["Tag", "Value"],
        occurrence.tags.map((tag) => [tag.key, tag.value]),
      )}`,
    );
  if (occurrence.breadcrumbs.length) {
    const omitted = occurrence.breadcrumbsOmitted ? ` (the newest ${occurrence.breadcrumbs.length}; ${occurrence.breadcrumbsOmitted} older left out)` : "";
    const rows = occurrence.breadcrumbs.map((crumb) => [crumb.timestamp, crumb.category ?? crumb.type, crumb.level, crumb.message]);
    parts.push(`#### Breadcrumbs${omitted}\n\n${table(["Time", "Category", "Level", "Message"], rows)}`);
  }
  return parts.join("\n\n");
}

function issueHeader(document: IssueExport): string {
  const { issue } = document;
  const facts = [
    `- **Culprit:** ${inline(issue.culprit ?? "unknown")}`,
    `- **Level:** ${inline(issue.level)} · **Status:** ${issue.status} · **Severity:** ${issue.severity}`,
    `- **Events:** ${issue.eventCount} · **Users:** ${issue.userCount}`,
    `- **First seen:** ${iso(issue.firstSeen)} · **Last seen:** ${iso(issue.lastSeen)}`,
    `- **First release:** ${inline(issue.firstRelease ?? "none")} · **Last release:** ${inline(issue.lastRelease ?? "none")}`,
  ];
  if (issue.resolvedInRelease) facts.push(`- **Resolved in release:** ${inline(issue.resolvedInRelease)}`);
  if (issue.releases.length) facts.push(`- **Releases:** ${issue.releases.map((release) => `${inline(release.version, 100)} (${release.count})`).join(", ")}`);
  facts.push(`- **Link:** <${document.url}>`);
  const parts = [`# ${inline(issue.title)}`, facts.join("\n")];
  if (issue.tags.length) {
    const rows = issue.tags.flatMap((tag) => tag.values.slice(0, TAG_VALUES).map((value) => [tag.key, value.value, value.count, tag.totalCount]));
    parts.push(`## Tags\n\n${table(["Tag", "Value", "Count", "Of"], rows)}`);
  }
  return parts.join("\n\n");
}

/** The export as one Markdown document of at most MAX_MARKDOWN_CHARS characters. */
export function renderIssueMarkdown(document: IssueExport): string {
  const head = issueHeader(document);
  const sections: string[] = [];
  let length = head.length;
  for (const [index, occurrence] of document.occurrences.entries()) {
    const section = occurrenceSection(occurrence, index);
    // Room is kept for the heading and the note on what was left out; the newest always goes in.
    if (sections.length > 0 && length + section.length + 400 > MAX_MARKDOWN_CHARS) break;
    sections.push(section);
    length += section.length + 2;
  }
  const left = document.occurrences.length - sections.length;
  const title = `## Latest occurrences (${sections.length} of ${document.issue.eventCount}, newest first; exported ${iso(document.exportedAt)})`;
  const note =
    left > 0 ? [`_${left} more occurrence(s) were left out to keep this document under ${MAX_MARKDOWN_CHARS.toLocaleString("en")} characters._`] : [];
  const body = sections.length ? sections : ["_No occurrence of this issue is kept._"];
  // A single occurrence bigger than the whole budget is cut rather than dropped.
  return clip([head, title, ...body, ...note].join("\n\n"), MAX_MARKDOWN_CHARS) + "\n";
}

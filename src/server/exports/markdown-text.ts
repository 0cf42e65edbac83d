// Safe pieces of Markdown built from event data, which is SDK input: it may hold backticks, pipes,
// newlines and headings of its own, and must never break the document around it.

/** Cuts `value` to `max` characters, saying so. */
export function clip(value: string, max: number): string {
  return value.length <= max ? value : `${value.slice(0, max)}… [${value.length - max} more characters]`;
}

/** A fenced block whose fence is longer than any run of backticks inside it, so the text cannot close it. */
export function fenced(body: string, language = "text"): string {
  const longestRun = Math.max(0, ...[...body.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = "`".repeat(Math.max(3, longestRun + 1));
  return `${fence}${language}\n${body}\n${fence}`;
}

/** Inline text: one line, Markdown's own characters escaped. */
export function inline(value: string, max = 500): string {
  return clip(value.replace(/\s+/g, " ").trim(), max).replace(/([\\`*_[\]<>#|])/g, "\\$1");
}

/** A table cell: inline text (pipes escaped there too). */
export const cell = (value: string | number | null) => (value === null ? "" : inline(String(value), 200));

export function table(header: string[], rows: (string | number | null)[][]): string {
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map((row) => line(row.map(cell)))].join("\n");
}

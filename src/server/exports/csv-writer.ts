// RFC 4180 CSV: fields joined by commas, rows ended by CRLF, a field holding a comma, quote, CR or
// LF wrapped in quotes with its quotes doubled.

export type CsvValue = string | number | boolean | Date | null | undefined;

/**
 * Spreadsheets run a cell that starts with = + - @ (or a tab or CR, which some strip first) as a
 * formula: an issue title such as `=HYPERLINK(...)` sent by anyone who can make the app throw would
 * run on the reader's machine. Such a cell gets a leading `'`, which shows it as text.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  // Numbers and dates are written by us, never SDK input: a negative number stays a number.
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  const text = value instanceof Date ? value.toISOString() : FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvRow = (values: CsvValue[]) => `${values.map(csvField).join(",")}\r\n`;

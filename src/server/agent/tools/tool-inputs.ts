import { z } from "zod";
import { IsoDateTime } from "../../../shared/date.inputs";

// Building blocks of the tools' input schemas. They are sent to the model as JSON Schema, so they
// stay plain (strings, enums, numbers) and describe themselves; the strict checks run on parse.

export const issueIdInput = z.uuid("Invalid issue id").describe("The issue's id (a UUID from a previous tool result)");
export const exceptionIdInput = z.uuid("Invalid exception id").describe("The exception's id (a UUID from a previous tool result)");

/** An ISO 8601 day or date-time, checked as the triage API checks its filters. */
export const toolDateInput = z
  .string()
  .max(40)
  .refine((value) => IsoDateTime.safeParse(value).success, "must be an ISO 8601 date or date-time between 1970 and 9999")
  .describe("ISO 8601 date or date-time, UTC (e.g. 2026-11-20 or 2026-11-20T08:00:00Z)");

export const windowInput = {
  dateFrom: toolDateInput.optional().describe("Start of the time window (default: the conversation's window)"),
  dateTo: toolDateInput.optional().describe("End of the time window (default: the conversation's window, or now)"),
};

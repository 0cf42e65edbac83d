import { z } from "zod";
import { ENVIRONMENTS } from "@/shared/environments";
import { IsoDay } from "@/shared/date.inputs";
import { MAX_PAGE, MAX_PAGE_SIZE } from "@/shared/paging";
import { parseSort, primarySort, type SortDirection } from "@/shared/sort";
import { hasNul } from "@/shared/text.inputs";

/**
 * Pieces of the triage screens' search schemas. The router JSON-parses search values, so numbers
 * and arrays arrive typed. A malformed value (hand-edited URL, old bookmark) falls back to its
 * default instead of failing the screen.
 */

export const projectIdParam = z.uuid().optional().catch(undefined);

export const pageParam = z.number().int().min(1).max(MAX_PAGE).default(1).catch(1);

export const sizeParam = (defaultSize: number) => z.number().int().min(1).max(MAX_PAGE_SIZE).default(defaultSize).catch(defaultSize);

/** A sort the API would accept (shared/sort.ts) and that sorts by something; else the default. */
export function sortParam(fields: readonly string[], defaultSort: string) {
  const valid = (value: string) => {
    const parsed = parseSort(value, fields);
    return "keys" in parsed && parsed.keys.length > 0;
  };
  return z.string().refine(valid).default(defaultSort).catch(defaultSort);
}

/** A hand-written `?environments=PRODUCTION` is a single string; links write a JSON array. */
export const environmentsParam = z
  .union([z.enum(ENVIRONMENTS).transform((value) => [value]), z.array(z.enum(ENVIRONMENTS))])
  .optional()
  .catch(undefined);

export const dayParam = IsoDay.optional().catch(undefined);

export const textParam = z
  .string()
  .trim()
  .max(200)
  .refine((value) => !hasNul(value))
  .optional()
  .catch(undefined);

/**
 * The sort after clicking a column header: the same column flips direction, another column starts
 * with its natural direction (newest / largest first for most).
 */
export function nextSort(current: string, field: string, firstDirection: SortDirection = "DESC"): string {
  const { field: currentField, direction } = primarySort(current);
  if (currentField !== field) return `${field}:${firstDirection}`;
  return `${field}:${direction === "DESC" ? "ASC" : "DESC"}`;
}

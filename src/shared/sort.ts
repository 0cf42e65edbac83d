import { z } from "zod";
import { MAX_SORT_LENGTH } from "./paging";

/**
 * The original product's sort syntax, `field:ASC|DESC`, several comma-separated, read the same way
 * by the API (sortInput) and by the client's search params and column headers.
 */
export type SortDirection = "ASC" | "DESC";
export interface SortKey<F extends string = string> {
  field: F;
  direction: SortDirection;
}

/** One `field:DIR` part: the direction in any case, ASC when absent; null direction when it is neither. */
function splitKey(part: string): { field: string; direction: SortDirection | null; written: string } {
  const [field, written = "ASC"] = part.trim().split(":");
  const direction = written.toUpperCase();
  return { field, direction: direction === "ASC" || direction === "DESC" ? direction : null, written };
}

/**
 * Parses a sort string against the allowed fields. Blank parts are skipped (so "" is no sort); an
 * unknown field or direction answers the message the API shows, naming what is allowed.
 */
export function parseSort<const F extends string>(value: string, fields: readonly F[]): { keys: SortKey<F>[] } | { error: string } {
  const keys: SortKey<F>[] = [];
  for (const part of value.split(",")) {
    if (part.trim() === "") continue;
    const { field, direction, written } = splitKey(part);
    if (!fields.includes(field as F)) return { error: `Unknown sort field "${field}". Allowed: ${fields.join(", ")}` };
    if (!direction) return { error: `Sort direction must be ASC or DESC, not "${written}"` };
    keys.push({ field: field as F, direction });
  }
  return { keys };
}

/** The first (primary) key of a sort string, whatever its field; ASC unless it says DESC. */
export function primarySort(sort: string): SortKey {
  const { field, direction } = splitKey(sort.split(",")[0]);
  return { field, direction: direction ?? "ASC" };
}

/** The API's sort parameter, parsed into [{ field, direction }]; refused with parseSort's message. */
export function sortInput<const F extends string>(fields: readonly F[], defaultSort: string) {
  return z
    .string()
    .max(MAX_SORT_LENGTH, `sort must be at most ${MAX_SORT_LENGTH} characters`)
    .default(defaultSort)
    .transform((value, ctx) => {
      const parsed = parseSort(value, fields);
      if ("error" in parsed) {
        ctx.addIssue({ code: "custom", message: parsed.error });
        return z.NEVER;
      }
      return parsed.keys;
    });
}

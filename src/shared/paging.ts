import { z } from "zod";

/** Paged lists answer the original product's shape, so its existing clients keep working. */
export interface Paged<T> {
  items: T[];
  meta: { itemCount: number; totalItems: number; itemsPerPage: number; totalPages: number; currentPage: number };
}

export const MAX_PAGE_SIZE = 100;
/**
 * OFFSET reads and drops every row before the page, so a deep page costs as much as the rows it
 * skips (page=1e15 was accepted). 1,000 pages reach 100,000 rows; narrow the filter beyond that.
 */
export const MAX_PAGE = 1000;
/** Room for every sort field of a list twice over; longer strings only make longer ORDER BYs. */
export const MAX_SORT_LENGTH = 200;

export const pageInput = (defaultSize: number) => ({
  page: z.coerce.number().int().min(1, "page must be at least 1").max(MAX_PAGE, `page must be at most ${MAX_PAGE}`).default(1),
  size: z.coerce.number().int().min(1, "size must be between 1 and 100").max(MAX_PAGE_SIZE, "size must be between 1 and 100").default(defaultSize),
});

/**
 * `field:ASC|DESC`, several comma-separated; an unknown field is refused naming the allowed ones.
 * Parsed into [{ field, direction }].
 */
export function sortInput<const F extends string>(fields: readonly F[], defaultSort: string) {
  return z
    .string()
    .max(MAX_SORT_LENGTH, `sort must be at most ${MAX_SORT_LENGTH} characters`)
    .default(defaultSort)
    .transform((value, ctx) => {
      const parts = value
        .split(",")
        .map((part) => part.trim())
        .filter(Boolean);
      const parsed: { field: F; direction: "ASC" | "DESC" }[] = [];
      for (const part of parts) {
        const [field, direction = "ASC"] = part.split(":");
        const dir = direction.toUpperCase();
        if (!fields.includes(field as F)) {
          ctx.addIssue({ code: "custom", message: `Unknown sort field "${field}". Allowed: ${fields.join(", ")}` });
          return z.NEVER;
        }
        if (dir !== "ASC" && dir !== "DESC") {
          ctx.addIssue({ code: "custom", message: `Sort direction must be ASC or DESC, not "${direction}"` });
          return z.NEVER;
        }
        parsed.push({ field: field as F, direction: dir });
      }
      return parsed;
    });
}

/** Query strings send empty filter values; they mean "no filter". */
export const emptyToUndefined = (value: unknown) => (value === "" || value === null ? undefined : value);

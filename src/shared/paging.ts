import { z } from "zod";
import type { PageMeta } from "./paged.views";

/** Paged lists answer the original product's shape, so its existing clients keep working. */
export interface Paged<T> {
  items: T[];
  meta: PageMeta;
}

export const MAX_PAGE_SIZE = 100;

export const pageInput = (defaultSize: number) => ({
  page: z.coerce.number().int().min(1, "page must be at least 1").default(1),
  size: z.coerce.number().int().min(1, "size must be between 1 and 100").max(MAX_PAGE_SIZE, "size must be between 1 and 100").default(defaultSize),
});

/**
 * `field:ASC|DESC`, several comma-separated; an unknown field is refused naming the allowed ones.
 * Parsed into [{ field, direction }].
 */
export function sortInput<const F extends string>(fields: readonly F[], defaultSort: string) {
  return z
    .string()
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

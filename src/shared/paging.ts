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

/** Query strings send empty filter values; they mean "no filter". */
export const emptyToUndefined = (value: unknown) => (value === "" || value === null ? undefined : value);

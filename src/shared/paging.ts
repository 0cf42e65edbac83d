import { z } from "zod";
import type { PageMeta } from "./paged.views";

/** Paged lists answer the original product's shape, so its existing clients keep working. */
export interface Paged<T> {
  items: T[];
  meta: PageMeta;
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

/** Query strings send empty filter values; they mean "no filter". */
export const emptyToUndefined = (value: unknown) => (value === "" || value === null ? undefined : value);

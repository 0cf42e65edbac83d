import { z } from "zod";

/** The paging envelope's counters (the original product's shape, so its existing clients keep working). */
export const PageMeta = z.object({
  itemCount: z.number().int(),
  totalItems: z.number().int(),
  itemsPerPage: z.number().int(),
  totalPages: z.number().int(),
  currentPage: z.number().int(),
});
export type PageMeta = z.infer<typeof PageMeta>;

/** `{ items, meta }` around one item view; the TypeScript side is `Paged<T>` in paging.ts. */
export const pagedView = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), meta: PageMeta });

import { useEffect } from "react";
import type { PageMeta } from "@/shared/paged.views";
import { MAX_PAGE } from "@/shared/paging";

/** The last page a list can show (page 1 when it is empty); the API pages no deeper than MAX_PAGE. */
export function lastPageOf(meta: PageMeta): number {
  return Math.min(Math.max(meta.totalPages, 1), MAX_PAGE);
}

/**
 * A page past the end of a list (`?page=99` from an old link, or the last item deleted by
 * someone else) is not "nothing here yet": the screen goes to the last page, replacing the
 * history entry, and meanwhile says so. `meta` must be the answer for the page asked for (not
 * the previous page's placeholder), or a page that is still loading would look like the end.
 * Answers whether the screen is past the end (show "no more results", not an empty state).
 */
export function usePageClamp(meta: PageMeta | undefined, page: number, goToPage: (page: number) => void): boolean {
  const last = meta ? lastPageOf(meta) : undefined;
  const pastEnd = last !== undefined && page > last;
  useEffect(() => {
    if (pastEnd && last !== undefined) goToPage(last);
    // goToPage is a fresh closure each render; the decision depends only on these two.
  }, [pastEnd, last]); // eslint-disable-line react-hooks/exhaustive-deps
  return pastEnd;
}

import type { Paged } from "../../shared/paging";

export const offsetOf = (page: number, size: number) => (page - 1) * size;

/** The original product's paging envelope; a page past the end answers no items, not an error. */
export function toPaged<T>(items: T[], totalItems: number, page: number, size: number): Paged<T> {
  return {
    items,
    meta: { itemCount: items.length, totalItems, itemsPerPage: size, totalPages: Math.ceil(totalItems / size), currentPage: page },
  };
}

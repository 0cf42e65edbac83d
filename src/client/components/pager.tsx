import { ChevronLeftIcon, ChevronRightIcon } from "lucide-react";
import { MAX_PAGE, type Paged } from "@/shared/paging";
import { formatNumber } from "@/client/lib/format";
import { Button } from "./ui/button";
import { NativeSelect } from "./ui/select";

const PAGE_SIZES = [10, 20, 50, 100];

interface Props {
  meta: Paged<unknown>["meta"];
  onPageChange: (page: number) => void;
  onSizeChange?: (size: number) => void;
}

/** "21–40 of 135", previous/next and the page size of a paged list. */
export function Pager({ meta, onPageChange, onSizeChange }: Props) {
  const first = meta.totalItems === 0 ? 0 : (meta.currentPage - 1) * meta.itemsPerPage + 1;
  const last = Math.min(meta.totalItems, first + meta.itemCount - 1);
  const sizes = PAGE_SIZES.includes(meta.itemsPerPage) ? PAGE_SIZES : [...PAGE_SIZES, meta.itemsPerPage].sort((a, b) => a - b);
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 text-sm text-muted-foreground" data-testid="pager">
      <span data-testid="pager-summary">
        {meta.totalItems === 0
          ? "No results"
          : meta.itemCount === 0
            ? `No more results (${formatNumber(meta.totalItems)} in all)`
            : `${formatNumber(first)}–${formatNumber(last)} of ${formatNumber(meta.totalItems)}`}
      </span>
      <div className="flex items-center gap-2">
        {onSizeChange ? (
          <label className="flex items-center gap-2">
            <span>Per page</span>
            <NativeSelect
              className="h-8 w-20"
              value={meta.itemsPerPage}
              onChange={(event) => onSizeChange(Number(event.target.value))}
              data-testid="pager-size"
            >
              {sizes.map((size) => (
                <option key={size} value={size}>
                  {size}
                </option>
              ))}
            </NativeSelect>
          </label>
        ) : null}
        <span className="tabular-nums">
          Page {formatNumber(meta.currentPage)} of {formatNumber(Math.max(meta.totalPages, 1))}
        </span>
        <Button
          variant="outline"
          size="icon"
          className="size-8"
          disabled={meta.currentPage <= 1}
          onClick={() => onPageChange(meta.currentPage - 1)}
          aria-label="Previous page"
          data-testid="pager-prev"
        >
          <ChevronLeftIcon />
        </Button>
        <Button
          variant="outline"
          size="icon"
          className="size-8"
          // The API pages no deeper than MAX_PAGE; past it, a narrower filter finds the rest.
          disabled={meta.currentPage >= Math.min(meta.totalPages, MAX_PAGE)}
          onClick={() => onPageChange(meta.currentPage + 1)}
          aria-label="Next page"
          data-testid="pager-next"
        >
          <ChevronRightIcon />
        </Button>
      </div>
    </div>
  );
}

import { ArrowDownIcon, ArrowUpDownIcon, ArrowUpIcon } from "lucide-react";
import { nextSort } from "@/client/lib/search-params";
import { primarySort, type SortDirection } from "@/shared/sort";
import { cn } from "@/client/lib/utils";
import { TableHead } from "./ui/table";

interface Props {
  label: string;
  field: string;
  sort: string;
  onSort: (sort: string) => void;
  /** The direction a first click sorts by. */
  firstDirection?: SortDirection;
  className?: string;
}

/** A column header that sorts the list by its field; a second click flips the direction. */
export function SortableTableHead({ label, field, sort, onSort, firstDirection = "DESC", className }: Props) {
  const current = primarySort(sort);
  const active = current.field === field;
  const Icon = !active ? ArrowUpDownIcon : current.direction === "DESC" ? ArrowDownIcon : ArrowUpIcon;
  return (
    <TableHead className={className} aria-sort={active ? (current.direction === "DESC" ? "descending" : "ascending") : "none"}>
      <button
        type="button"
        className={cn("-ml-1 inline-flex items-center gap-1 rounded px-1 py-0.5 hover:bg-accent", active ? "text-foreground" : "text-muted-foreground")}
        onClick={() => onSort(nextSort(sort, field, firstDirection))}
        data-testid={`sort-${field}`}
      >
        {label}
        <Icon className="size-3.5" aria-hidden />
      </button>
    </TableHead>
  );
}

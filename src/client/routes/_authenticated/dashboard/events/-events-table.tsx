import { useState } from "react";
import { ChevronRightIcon } from "lucide-react";
import type { EventListItem } from "@/shared/triage.views";
import { cleanText, displayValue, prettyJson } from "@/client/lib/untrusted-text";
import { formatDateTime } from "@/client/lib/format";
import { cn } from "@/client/lib/utils";
import { RelativeTime } from "@/client/components/relative-time";
import { SortableTableHead } from "@/client/components/sortable-table-head";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/client/components/ui/table";

export function EventsTable({ events, sort, onSort }: { events: EventListItem[]; sort: string; onSort: (sort: string) => void }) {
  return (
    <Table data-testid="events-table" className="table-fixed">
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <SortableTableHead label="Name" field="name" sort={sort} onSort={onSort} firstDirection="ASC" className="w-1/4 pl-4" />
          <TableHead>Properties</TableHead>
          <SortableTableHead label="Created" field="createdAt" sort={sort} onSort={onSort} className="w-40 pr-4" />
        </TableRow>
      </TableHeader>
      <TableBody>
        {events.map((event) => (
          <EventRow key={event.id} event={event} />
        ))}
      </TableBody>
    </Table>
  );
}

function EventRow({ event }: { event: EventListItem }) {
  const [expanded, setExpanded] = useState(false);
  const hasProperties = Object.keys(event.properties ?? {}).length > 0;
  return (
    <TableRow data-testid="event-row" data-event-id={event.id} className="[&>td]:align-top">
      <TableCell className="truncate pl-4 font-medium" title={cleanText(event.name)}>
        {cleanText(event.name)}
      </TableCell>
      <TableCell className="min-w-0">
        {hasProperties ? (
          <button
            type="button"
            className="flex w-full min-w-0 items-start gap-1 text-left"
            onClick={() => setExpanded((shown) => !shown)}
            aria-expanded={expanded}
            data-testid="event-properties-toggle"
          >
            <ChevronRightIcon className={cn("mt-0.5 size-3.5 shrink-0 text-muted-foreground transition-transform", expanded && "rotate-90")} aria-hidden />
            {expanded ? null : <code className="min-w-0 truncate font-mono text-xs text-muted-foreground">{displayValue(event.properties)}</code>}
            {expanded ? <span className="text-xs text-muted-foreground">Hide</span> : null}
          </button>
        ) : (
          <span className="text-muted-foreground">—</span>
        )}
        {expanded ? (
          <pre
            className="mt-2 max-h-96 overflow-auto rounded-md border bg-muted/50 p-3 font-mono text-xs whitespace-pre-wrap [overflow-wrap:anywhere]"
            data-testid="event-properties"
          >
            {prettyJson(event.properties)}
          </pre>
        ) : null}
      </TableCell>
      <TableCell className="pr-4 whitespace-nowrap text-muted-foreground" title={formatDateTime(event.createdAt)}>
        <RelativeTime date={event.createdAt} />
      </TableCell>
    </TableRow>
  );
}

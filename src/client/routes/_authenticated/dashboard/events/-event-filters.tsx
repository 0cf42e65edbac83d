import { XIcon } from "lucide-react";
import { SearchBox } from "@/client/components/search-box";
import { Button } from "@/client/components/ui/button";
import { Card } from "@/client/components/ui/card";
import { Input } from "@/client/components/ui/input";
import type { EventsSearch } from "./-events-search";

/** Name and creation-date filters, kept in the URL. */
export function EventFilters({ search, onChange }: { search: EventsSearch; onChange: (changes: Partial<EventsSearch>) => void }) {
  return (
    <Card className="flex-row flex-wrap items-center gap-3 px-4 py-4" data-testid="event-filters">
      <SearchBox
        value={search.name ?? ""}
        onSubmit={(name) => onChange({ name: name || undefined })}
        label="Event name"
        placeholder="Filter by event name"
        testId="filter-event-name"
      />
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="text-muted-foreground">Created</span>
        <Input
          type="date"
          aria-label="Created from"
          className="h-9 w-40"
          value={search.from ?? ""}
          max={search.to}
          onChange={(event) => onChange({ from: event.target.value || undefined })}
          data-testid="filter-from"
        />
        <span className="text-muted-foreground">to</span>
        <Input
          type="date"
          aria-label="Created to"
          className="h-9 w-40"
          value={search.to ?? ""}
          min={search.from}
          onChange={(event) => onChange({ to: event.target.value || undefined })}
          data-testid="filter-to"
        />
      </div>
      {search.name || search.from || search.to ? (
        <Button variant="ghost" size="sm" onClick={() => onChange({ name: undefined, from: undefined, to: undefined })} data-testid="filter-clear">
          <XIcon /> Clear
        </Button>
      ) : null}
    </Card>
  );
}

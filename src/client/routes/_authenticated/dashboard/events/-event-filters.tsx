import { useEffect, useRef, useState } from "react";
import { SearchIcon, XIcon } from "lucide-react";
import { Button } from "@/client/components/ui/button";
import { Card } from "@/client/components/ui/card";
import { Input } from "@/client/components/ui/input";
import type { EventsSearch } from "./-events-search";

const NAME_DEBOUNCE_MS = 400;

/** Name and creation-date filters, kept in the URL. */
export function EventFilters({ search, onChange }: { search: EventsSearch; onChange: (changes: Partial<EventsSearch>) => void }) {
  const current = search.name ?? "";
  const [name, setName] = useState(current);
  const timer = useRef<number | undefined>(undefined);
  const submitted = useRef(current);

  // Follow the URL (clear, back), but not the echo of our own submission: keys typed meanwhile stay.
  useEffect(() => {
    if (current !== submitted.current) setName(current);
    submitted.current = current;
  }, [current]);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const submit = (next: string) => {
    window.clearTimeout(timer.current);
    const trimmed = next.trim();
    if (trimmed === current) return;
    submitted.current = trimmed;
    onChange({ name: trimmed || undefined });
  };

  return (
    <Card className="flex-row flex-wrap items-center gap-3 px-4 py-4" data-testid="event-filters">
      <form
        role="search"
        className="relative min-w-56 flex-1"
        onSubmit={(event) => {
          event.preventDefault();
          submit(name);
        }}
      >
        <SearchIcon className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
        <Input
          type="search"
          aria-label="Event name"
          placeholder="Filter by event name"
          className="pl-8"
          value={name}
          maxLength={200}
          onChange={(event) => {
            const next = event.target.value;
            setName(next);
            window.clearTimeout(timer.current);
            timer.current = window.setTimeout(() => submit(next), NAME_DEBOUNCE_MS);
          }}
          data-testid="filter-event-name"
        />
      </form>
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

import { Link } from "@tanstack/react-router";
import { InboxIcon, SettingsIcon, XIcon } from "lucide-react";
import type { ProjectView } from "@/client/lib/trpc";
import { Button } from "@/client/components/ui/button";
import { FirstEventWaiting } from "@/client/components/first-event-waiting";

/** No issue at all (nothing sent yet) reads differently from no issue matching the filters. */
export function IssuesEmptyState({ filtered, project, onClearFilters }: { filtered: boolean; project: ProjectView; onClearFilters: () => void }) {
  return (
    <div className="flex flex-col items-center gap-3 px-4 py-14 text-center" data-testid="issues-empty">
      <InboxIcon className="size-10 text-muted-foreground" aria-hidden />
      {filtered ? (
        <>
          <h2 className="text-lg font-semibold">No issues match these filters</h2>
          <Button variant="outline" size="sm" onClick={onClearFilters}>
            <XIcon /> Clear filters
          </Button>
        </>
      ) : (
        <>
          <h2 className="text-lg font-semibold">No issues yet</h2>
          <p className="max-w-md text-sm text-muted-foreground">Errors sent with {project.name}'s DSN show up here, grouped into issues.</p>
          <div className="w-full max-w-xl text-left">
            <FirstEventWaiting project={project} />
          </div>
          <Button asChild variant="outline" size="sm">
            <Link to="/dashboard/projects/$projectId/settings" params={{ projectId: project.id }}>
              <SettingsIcon /> Set up the SDK
            </Link>
          </Button>
        </>
      )}
    </div>
  );
}

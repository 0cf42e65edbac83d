import { Link } from "@tanstack/react-router";
import { CheckCircle2Icon, Loader2Icon } from "lucide-react";
import { useEffect, useState } from "react";
import { trpc, type ProjectView } from "@/client/lib/trpc";
import { CopyButton } from "./copy-button";

/** Often enough that the first error shows up while someone watches, rarely enough to cost nothing. */
const POLL_MS = 3_000;

/**
 * A project nothing has reached yet says so, with the DSN to send to, and keeps looking until the
 * first exception arrives (issue 37 item 12); then it says so once and links to it. A project that
 * already has issues shows nothing. "Event" here is the word a person setting up an SDK uses.
 */
export function FirstEventWaiting({ project }: { project: Pick<ProjectView, "id" | "name" | "dsn"> }) {
  const issues = trpc.issue.list.useQuery(
    { projectId: project.id, page: 1, size: 1 },
    { refetchInterval: (query) => (query.state.data && query.state.data.items.length > 0 ? false : POLL_MS) },
  );
  // Only a screen that watched the project empty announces the arrival; a project with issues stays quiet.
  const [waited, setWaited] = useState(false);
  const empty = issues.data?.items.length === 0;
  const arrived = waited && issues.data?.items.length === 1;
  const utils = trpc.useUtils();
  useEffect(() => {
    if (empty) setWaited(true);
  }, [empty]);
  // The screen around this (the issue list's empty state) reads its own page of issues: refresh it.
  useEffect(() => {
    if (arrived) void utils.issue.list.invalidate({ projectId: project.id });
  }, [arrived, utils, project.id]);
  if (!issues.data) return null;
  const first = issues.data.items[0];
  if (first) {
    return waited ? (
      <div className="flex flex-wrap items-center gap-2 rounded-md border bg-muted/30 p-4 text-sm" data-testid="first-event-received">
        <CheckCircle2Icon className="size-4 text-emerald-600" aria-hidden />
        <span className="font-medium">The first event arrived.</span>
        <Link to="/dashboard/issues/$issueId" params={{ issueId: first.id }} search={{ projectId: project.id }} className="underline underline-offset-2">
          Open it
        </Link>
      </div>
    ) : null;
  }
  return (
    <div className="grid gap-2 rounded-md border border-dashed p-4 text-sm" data-testid="first-event-waiting">
      <p className="flex items-center gap-2 font-medium">
        <Loader2Icon className="size-4 animate-spin text-muted-foreground" aria-hidden />
        Waiting for the first event
      </p>
      <p className="text-muted-foreground">Send an error from your application with this DSN; it shows up here as soon as it arrives.</p>
      {project.dsn ? (
        <span className="flex min-w-0 items-center gap-1">
          <code className="truncate font-mono text-xs" data-testid="first-event-dsn">
            {project.dsn}
          </code>
          <CopyButton value={project.dsn} label="DSN" />
        </span>
      ) : (
        <p className="text-muted-foreground">This project has no active key: add one below to get a DSN.</p>
      )}
    </div>
  );
}

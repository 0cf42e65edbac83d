import { Link } from "@tanstack/react-router";
import { FolderIcon, ListIcon, SettingsIcon } from "lucide-react";
import type { ProjectOverview } from "@/shared/triage.views";
import type { ProjectView } from "@/client/lib/trpc";
import { formatCount, formatNumber } from "@/client/lib/format";
import { cleanText } from "@/client/lib/untrusted-text";
import { LevelBadge, RegressionBadge } from "@/client/components/issue-badges";
import { OccurrenceChart } from "@/client/components/occurrence-chart";
import { PlatformBadge } from "@/client/components/platform-badge";
import { RelativeTime } from "@/client/components/relative-time";
import { Button } from "@/client/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/client/components/ui/card";
import { Skeleton } from "@/client/components/ui/skeleton";

const TOP_ISSUES_SHOWN = 5;

interface Props {
  project: ProjectView;
  /** Undefined while loading, or when the overview failed (the screen reports that once). */
  overview: ProjectOverview | undefined;
  overviewPending: boolean;
}

/** A project with its last 14 days of occurrences and its top issues. */
export function ProjectOverviewCard({ project, overview, overviewPending }: Props) {
  const total = overview?.daily.reduce((sum, day) => sum + day.count, 0) ?? 0;
  return (
    <Card className="gap-4" data-testid="project-card" data-project-id={project.id}>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <FolderIcon className="size-4 text-muted-foreground" aria-hidden />
          <span className="truncate">{project.name}</span>
          <span className="ml-auto">
            <PlatformBadge platform={project.platform} />
          </span>
        </CardTitle>
        <CardDescription className="line-clamp-1">{project.description || "No description"}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid gap-1">
          <div className="flex items-baseline justify-between text-xs text-muted-foreground">
            <span>Occurrences, last 14 days</span>
            {overview ? <span className="font-medium text-foreground tabular-nums">{formatNumber(total)}</span> : null}
          </div>
          {overviewPending || overview ? <OccurrenceChart compact data={overview?.daily} isPending={overviewPending} error={null} /> : null}
        </div>
        <div className="grid gap-2">
          <h3 className="text-xs font-medium text-muted-foreground uppercase">Top issues</h3>
          {overviewPending ? (
            <div className="grid gap-2">
              {[0, 1, 2].map((index) => (
                <Skeleton key={index} className="h-5" />
              ))}
            </div>
          ) : !overview ? (
            <p className="text-sm text-muted-foreground">Unavailable.</p>
          ) : overview.topIssues.length === 0 ? (
            <p className="text-sm text-muted-foreground" data-testid="top-issues-empty">
              No open issues.
            </p>
          ) : (
            <ul className="grid gap-1.5" data-testid="top-issues">
              {overview.topIssues.slice(0, TOP_ISSUES_SHOWN).map((issue) => (
                <li key={issue.id} className="flex min-w-0 items-center gap-2 text-sm" data-testid="top-issue">
                  <LevelBadge level={issue.level} className="px-1.5 text-[10px]" />
                  <Link
                    to="/dashboard/issues/$issueId"
                    params={{ issueId: issue.id }}
                    search={{ projectId: project.id }}
                    className="min-w-0 flex-1 truncate hover:underline"
                    title={cleanText(issue.title)}
                  >
                    {cleanText(issue.title)}
                  </Link>
                  {issue.isRegression ? <RegressionBadge compact /> : null}
                  <span className="shrink-0 text-xs text-muted-foreground tabular-nums" title={`${formatNumber(issue.eventCount)} events`}>
                    {formatCount(issue.eventCount)}
                  </span>
                  <RelativeTime date={issue.lastSeen} className="hidden shrink-0 text-xs text-muted-foreground sm:inline" />
                </li>
              ))}
            </ul>
          )}
        </div>
      </CardContent>
      <CardFooter className="mt-auto gap-2">
        <Button asChild variant="outline" size="sm">
          <Link to="/dashboard/issues" search={{ projectId: project.id }}>
            <ListIcon /> Issues
          </Link>
        </Button>
        <Button asChild variant="ghost" size="sm">
          <Link to="/dashboard/projects/$projectId/settings" params={{ projectId: project.id }}>
            <SettingsIcon /> Settings
          </Link>
        </Button>
      </CardFooter>
    </Card>
  );
}

import { Link } from "@tanstack/react-router";
import { FolderIcon, ListIcon, SettingsIcon } from "lucide-react";
import type { IssueListItem, ProjectOverview } from "@/shared/triage.views";
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
import { cn } from "@/client/lib/utils";
import { TOP_ISSUE_ORDERINGS, type TopIssueOrdering } from "./-dashboard-search";

const TOP_ISSUES_SHOWN = 5;
/** An issue of either ordering; only the most frequent ones carry their count in the window. */
type TopIssue = IssueListItem & { windowCount?: number };
const ORDERING_LABELS: Record<TopIssueOrdering, string> = { frequent: "Most frequent", newest: "Newest" };
const ORDERING_HINTS: Record<TopIssueOrdering, string> = {
  frequent: "Open issues with the most exceptions in the last 14 days",
  newest: "Open issues seen most recently",
};

interface Props {
  project: ProjectView;
  /** Undefined while loading, or when the overview failed (the screen reports that once). */
  overview: ProjectOverview | undefined;
  overviewPending: boolean;
  ordering: TopIssueOrdering;
  onOrderingChange: (ordering: TopIssueOrdering) => void;
}

/** A project with its last 14 days of occurrences and its top issues. */
export function ProjectOverviewCard({ project, overview, overviewPending, ordering, onOrderingChange }: Props) {
  const total = overview?.daily.reduce((sum, day) => sum + day.count, 0) ?? 0;
  const shown: TopIssue[] = (ordering === "frequent" ? overview?.frequentIssues : overview?.topIssues) ?? [];
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
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h3 className="text-xs font-medium text-muted-foreground uppercase" title={ORDERING_HINTS[ordering]} data-testid="top-issues-heading">
              Top issues · {ordering === "frequent" ? "most frequent, 14 days" : "newest"}
            </h3>
            <div role="radiogroup" aria-label="Order top issues by" className="inline-flex rounded-md border p-0.5">
              {TOP_ISSUE_ORDERINGS.map((option) => (
                <button
                  key={option}
                  type="button"
                  role="radio"
                  aria-checked={ordering === option}
                  title={ORDERING_HINTS[option]}
                  onClick={() => onOrderingChange(option)}
                  className={cn(
                    "rounded px-2 py-0.5 text-xs text-muted-foreground transition-colors hover:text-foreground",
                    ordering === option && "bg-accent font-medium text-foreground",
                  )}
                  data-testid={`top-issues-${option}`}
                >
                  {ORDERING_LABELS[option]}
                </button>
              ))}
            </div>
          </div>
          {overviewPending ? (
            <div className="grid gap-2">
              {[0, 1, 2].map((index) => (
                <Skeleton key={index} className="h-5" />
              ))}
            </div>
          ) : !overview ? (
            <p className="text-sm text-muted-foreground">Unavailable.</p>
          ) : shown.length === 0 ? (
            <p className="text-sm text-muted-foreground" data-testid="top-issues-empty">
              {ordering === "frequent" ? "No open issues in the last 14 days." : "No open issues."}
            </p>
          ) : (
            <ul className="grid gap-1.5" data-testid="top-issues" data-ordering={ordering}>
              {shown.slice(0, TOP_ISSUES_SHOWN).map((issue) => (
                <li key={issue.id} className="flex min-w-0 items-center gap-2 text-sm" data-testid="top-issue" data-issue-id={issue.id}>
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
                  {issue.windowCount !== undefined ? (
                    <span
                      className="shrink-0 text-xs text-muted-foreground tabular-nums"
                      title={`${formatNumber(issue.windowCount)} exceptions in the last 14 days (${formatNumber(issue.eventCount)} in all)`}
                      data-testid="top-issue-count"
                    >
                      {formatCount(issue.windowCount)}
                    </span>
                  ) : (
                    <span
                      className="shrink-0 text-xs text-muted-foreground tabular-nums"
                      title={`${formatNumber(issue.eventCount)} events`}
                      data-testid="top-issue-count"
                    >
                      {formatCount(issue.eventCount)}
                    </span>
                  )}
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

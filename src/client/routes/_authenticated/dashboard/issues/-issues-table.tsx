import { Link } from "@tanstack/react-router";
import type { IssueListItem } from "@/shared/triage.views";
import { cleanText } from "@/client/lib/untrusted-text";
import { formatCount, formatNumber } from "@/client/lib/format";
import { LevelBadge, RegressionBadge, SeverityBadge, StatusBadge } from "@/client/components/issue-badges";
import { RelativeTime } from "@/client/components/relative-time";
import { SortableTableHead } from "@/client/components/sortable-table-head";
import { Checkbox } from "@/client/components/ui/checkbox";
import { LINKED_ROW, ROW_CONTROL, ROW_LINK } from "@/client/components/row-link";
import { Skeleton } from "@/client/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/client/components/ui/table";

interface Props {
  issues: IssueListItem[];
  projectId: string;
  sort: string;
  onSort: (sort: string) => void;
  /** The rows chosen for the bulk actions; null hides the checkboxes (a role that may not triage). */
  selected: ReadonlySet<string> | null;
  onSelectedChange: (selected: ReadonlySet<string>) => void;
}

export function IssuesTable({ issues, projectId, sort, onSort, selected, onSelectedChange }: Props) {
  const selectedOnPage = issues.filter((issue) => selected?.has(issue.id)).length;
  const allSelected = selectedOnPage === issues.length;
  const toggle = (issueId: string, checked: boolean) => {
    const next = new Set(selected ?? []);
    if (checked) next.add(issueId);
    else next.delete(issueId);
    onSelectedChange(next);
  };

  return (
    <Table data-testid="issues-table">
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          {selected ? (
            <TableHead className="w-10 pl-4">
              <Checkbox
                aria-label="Select all issues on this page"
                checked={allSelected ? true : selectedOnPage > 0 ? "indeterminate" : false}
                onCheckedChange={(checked) => onSelectedChange(new Set(checked === true ? issues.map((issue) => issue.id) : []))}
                data-testid="issue-select-all"
              />
            </TableHead>
          ) : null}
          <SortableTableHead label="Issue" field="title" sort={sort} onSort={onSort} firstDirection="ASC" />
          <SortableTableHead label="Severity" field="severity" sort={sort} onSort={onSort} className="hidden md:table-cell" />
          <SortableTableHead label="Events" field="eventCount" sort={sort} onSort={onSort} className="text-right" />
          <SortableTableHead label="Users" field="userCount" sort={sort} onSort={onSort} className="hidden text-right sm:table-cell" />
          <SortableTableHead label="Last seen" field="lastSeen" sort={sort} onSort={onSort} />
          <SortableTableHead label="First seen" field="firstSeen" sort={sort} onSort={onSort} className="hidden pr-4 lg:table-cell" />
        </TableRow>
      </TableHeader>
      <TableBody>
        {issues.map((issue) => (
          <TableRow
            key={issue.id}
            data-testid="issue-row"
            data-issue-id={issue.id}
            data-status={issue.status}
            data-state={selected?.has(issue.id) ? "selected" : undefined}
            className={LINKED_ROW}
          >
            {selected ? (
              <TableCell className="w-10 pl-4 align-top">
                <Checkbox
                  className={`mt-0.5 ${ROW_CONTROL}`}
                  aria-label={`Select ${cleanText(issue.title)}`}
                  checked={selected.has(issue.id)}
                  onCheckedChange={(checked) => toggle(issue.id, checked === true)}
                  data-testid="issue-checkbox"
                />
              </TableCell>
            ) : null}
            <TableCell className="max-w-0 min-w-64 py-3">
              <Link
                to="/dashboard/issues/$issueId"
                params={{ issueId: issue.id }}
                search={{ projectId }}
                className={`line-clamp-2 font-medium break-words hover:underline ${ROW_LINK}`}
                data-testid="issue-title"
              >
                {cleanText(issue.title)}
              </Link>
              {issue.culprit ? (
                <p className="mt-0.5 truncate font-mono text-xs text-muted-foreground" title={cleanText(issue.culprit)}>
                  {cleanText(issue.culprit)}
                </p>
              ) : null}
              <div className="mt-1.5 flex flex-wrap items-center gap-1.5">
                <LevelBadge level={issue.level} />
                <StatusBadge status={issue.status} />
                {issue.isRegression ? <RegressionBadge /> : null}
                <span className="md:hidden">
                  <SeverityBadge severity={issue.severity} />
                </span>
                {issue.environments.slice(0, 3).map((environment) => (
                  <span key={environment} className="max-w-32 truncate text-xs text-muted-foreground">
                    {cleanText(environment)}
                  </span>
                ))}
              </div>
            </TableCell>
            <TableCell className="hidden align-top md:table-cell">
              <div className="py-1">
                <SeverityBadge severity={issue.severity} />
              </div>
            </TableCell>
            <TableCell className="text-right align-top tabular-nums" title={`${formatNumber(issue.eventCount)} events`}>
              <div className="py-1" data-testid="issue-event-count">
                {formatCount(issue.eventCount)}
              </div>
            </TableCell>
            <TableCell className="hidden text-right align-top tabular-nums sm:table-cell" title={`${formatNumber(issue.userCount)} users`}>
              <div className="py-1" data-testid="issue-user-count">
                {formatCount(issue.userCount)}
              </div>
            </TableCell>
            <TableCell className="align-top whitespace-nowrap text-muted-foreground">
              <div className="py-1">
                <RelativeTime date={issue.lastSeen} />
              </div>
            </TableCell>
            <TableCell className="hidden pr-4 align-top whitespace-nowrap text-muted-foreground lg:table-cell">
              <div className="py-1">
                <RelativeTime date={issue.firstSeen} />
              </div>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

export function IssuesTableSkeleton() {
  return (
    <div className="grid gap-3 p-4" aria-busy data-testid="issues-loading">
      {Array.from({ length: 6 }, (_, index) => (
        <div key={index} className="flex items-center gap-4">
          <Skeleton className="size-4" />
          <div className="grid flex-1 gap-1.5">
            <Skeleton className="h-4 w-2/3" />
            <Skeleton className="h-3 w-1/3" />
          </div>
          <Skeleton className="h-4 w-12" />
          <Skeleton className="h-4 w-16" />
        </div>
      ))}
    </div>
  );
}

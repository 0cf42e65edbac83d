import { Link } from "@tanstack/react-router";
import type { ReleaseIssueView } from "@/shared/release.views";
import { formatNumber } from "@/client/lib/format";
import { cleanText } from "@/client/lib/untrusted-text";
import { RelativeTime } from "@/client/components/relative-time";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";

/** A list of the release's issues (new in it, or regressed in it), each linked to its page. */
export function ReleaseIssuesCard({
  title,
  description,
  empty,
  issues,
  projectId,
  testId,
}: {
  title: string;
  description: string;
  empty: string;
  issues: ReleaseIssueView[];
  projectId: string;
  testId: string;
}) {
  return (
    <Card className="gap-4" data-testid={testId}>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        {issues.length === 0 ? (
          <p className="text-sm text-muted-foreground">{empty}</p>
        ) : (
          <ul className="grid gap-3">
            {issues.map((issue) => (
              <li key={issue.id} className="grid gap-0.5 text-sm" data-testid="release-issue">
                <Link to="/dashboard/issues/$issueId" params={{ issueId: issue.id }} search={{ projectId }} className="truncate font-medium hover:underline">
                  {cleanText(issue.title)}
                </Link>
                <span className="text-xs text-muted-foreground">
                  {issue.level} · {formatNumber(issue.eventCount)} {issue.eventCount === 1 ? "event" : "events"} · first seen{" "}
                  <RelativeTime date={issue.firstSeen} />
                </span>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

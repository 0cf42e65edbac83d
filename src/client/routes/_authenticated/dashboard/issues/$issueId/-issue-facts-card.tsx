import type { ReactNode } from "react";
import type { IssueDetail } from "@/shared/triage.views";
import { formatDateTime, formatNumber } from "@/client/lib/format";
import { cleanText } from "@/client/lib/untrusted-text";
import { EnvironmentBadge } from "@/client/components/issue-badges";
import { RelativeTime } from "@/client/components/relative-time";
import { Card, CardContent, CardHeader, CardTitle } from "@/client/components/ui/card";

export function IssueFactsCard({ issue }: { issue: IssueDetail }) {
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle>Details</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2.5 text-sm">
          <Fact label="Events" testId="issue-events">
            <span className="tabular-nums">{formatNumber(issue.eventCount)}</span>
          </Fact>
          <Fact label="Users" testId="issue-users">
            <span className="tabular-nums">{formatNumber(issue.userCount)}</span>
          </Fact>
          <Fact label="First seen">
            <RelativeTime date={issue.firstSeen} /> <span className="text-xs text-muted-foreground">({formatDateTime(issue.firstSeen)})</span>
          </Fact>
          <Fact label="Last seen">
            <RelativeTime date={issue.lastSeen} /> <span className="text-xs text-muted-foreground">({formatDateTime(issue.lastSeen)})</span>
          </Fact>
          <Fact label="First release">
            <Release value={issue.firstRelease} />
          </Fact>
          <Fact label="Last release">
            <Release value={issue.lastRelease} />
          </Fact>
          {issue.resolvedAt ? (
            <Fact label="Resolved">
              <RelativeTime date={issue.resolvedAt} />
            </Fact>
          ) : null}
          <Fact label="Environments">
            {issue.environments.length ? (
              <span className="flex flex-wrap gap-1">
                {issue.environments.map((environment) => (
                  <EnvironmentBadge key={environment} environment={cleanText(environment)} />
                ))}
              </span>
            ) : (
              <span className="text-muted-foreground">—</span>
            )}
          </Fact>
        </dl>
      </CardContent>
    </Card>
  );
}

function Fact({ label, testId, children }: { label: string; testId?: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0" data-testid={testId}>
        {children}
      </dd>
    </>
  );
}

function Release({ value }: { value: string | null }) {
  if (!value) return <span className="text-muted-foreground">—</span>;
  return <code className="font-mono text-xs break-all">{cleanText(value)}</code>;
}

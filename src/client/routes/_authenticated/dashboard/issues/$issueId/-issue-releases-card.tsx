import type { IssueRelease } from "@/shared/triage.views";
import { formatNumber } from "@/client/lib/format";
import { Card, CardContent, CardHeader, CardTitle } from "@/client/components/ui/card";
import { ReleaseLink } from "./-release-link";

/** The releases the issue's exceptions came from, newest release first, with how many came from each. */
export function IssueReleasesCard({ projectId, releases }: { projectId: string; releases: IssueRelease[] }) {
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle>Releases</CardTitle>
      </CardHeader>
      <CardContent>
        {releases.length === 0 ? (
          <p className="text-sm text-muted-foreground">No exception of this issue named a release.</p>
        ) : (
          <ul className="grid gap-1.5 text-sm" data-testid="issue-releases">
            {releases.map((release) => (
              <li key={release.version} className="flex items-baseline justify-between gap-3" data-testid="issue-release">
                <ReleaseLink projectId={projectId} version={release.version} className="min-w-0 font-mono text-xs break-all" />
                <span className="text-muted-foreground tabular-nums">{formatNumber(release.count)}</span>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

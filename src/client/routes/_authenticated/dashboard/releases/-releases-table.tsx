import { Link } from "@tanstack/react-router";
import type { ReleaseListItem } from "@/shared/release.views";
import { formatNumber } from "@/client/lib/format";
import { cleanText } from "@/client/lib/untrusted-text";
import { RelativeTime } from "@/client/components/relative-time";
import { Sparkline } from "@/client/components/sparkline";
import { Badge } from "@/client/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/client/components/ui/table";
import { percentText } from "./-release-health-text";

/** The project's releases: version, health, new issues, adoption, deploys and 14 days of sessions. */
export function ReleasesTable({ releases, projectId, environment }: { releases: ReleaseListItem[]; projectId: string; environment: string | undefined }) {
  return (
    <Table data-testid="releases-table">
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <TableHead className="pl-4">Version</TableHead>
          <TableHead className="text-right">Crash-free sessions</TableHead>
          <TableHead className="text-right">Crash-free users</TableHead>
          <TableHead className="text-right">Sessions</TableHead>
          <TableHead className="text-right">Adoption (24 h)</TableHead>
          <TableHead className="text-right">New issues</TableHead>
          <TableHead className="text-right">Deploys</TableHead>
          <TableHead className="pr-4">Sessions, 14 days</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {releases.map((release) => (
          <TableRow key={release.version} data-testid="release-row" data-version={release.version}>
            <TableCell className="max-w-72 pl-4">
              <div className="grid gap-0.5">
                <span className="flex items-center gap-2">
                  <Link
                    to="/dashboard/releases/$version"
                    params={{ version: release.version }}
                    search={{ projectId, environment }}
                    className="truncate font-mono text-sm font-medium hover:underline"
                    data-testid="release-link"
                  >
                    {cleanText(release.version)}
                  </Link>
                  {release.status === "archived" ? <Badge variant="outline">archived</Badge> : null}
                </span>
                <span className="text-xs text-muted-foreground">
                  created <RelativeTime date={release.dateCreated} />
                  {release.commitCount > 0 ? ` · ${formatNumber(release.commitCount)} commits` : ""}
                </span>
              </div>
            </TableCell>
            <TableCell className="text-right tabular-nums" data-testid="crash-free-sessions">
              {percentText(release.health.crashFreeSessions)}
            </TableCell>
            <TableCell className="text-right tabular-nums" data-testid="crash-free-users">
              {percentText(release.health.crashFreeUsers)}
            </TableCell>
            <TableCell className="text-right tabular-nums">{formatNumber(release.health.sessions)}</TableCell>
            <TableCell className="text-right tabular-nums" data-testid="adoption">
              {percentText(release.health.adoption)}
            </TableCell>
            <TableCell className="text-right tabular-nums" data-testid="new-issues">
              {formatNumber(release.newIssues)}
            </TableCell>
            <TableCell className="text-right tabular-nums">{formatNumber(release.deploys)}</TableCell>
            <TableCell className="pr-4 text-muted-foreground">
              <Sparkline values={release.sessionsByDay} label={`Sessions per day of ${release.version}, last 14 days`} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

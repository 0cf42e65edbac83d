import type { IssueDetail } from "@/shared/triage.views";
import { cleanText } from "@/client/lib/untrusted-text";
import { Badge } from "@/client/components/ui/badge";
import { ReleaseLink } from "./-release-link";

/** The release an issue is resolved in (while RESOLVED), and the releases of its first and latest events. */
export function ReleaseBadges({ issue }: { issue: IssueDetail }) {
  return (
    <>
      {issue.resolvedInRelease ? (
        <Badge variant="secondary" data-testid="issue-resolved-in-release">
          {resolvedInReleaseText(issue.resolvedInRelease, issue.resolvedInNextRelease)}
        </Badge>
      ) : null}
      {issue.firstRelease ? (
        <Badge variant="outline" data-testid="issue-first-release" className="max-w-full break-all">
          {/* One span: the badge lays its children out as flex items, which would break the sentence. */}
          <span>
            First seen in <ReleaseLink projectId={issue.projectId} version={issue.firstRelease} />
          </span>
        </Badge>
      ) : null}
      {issue.lastRelease ? (
        <Badge variant="outline" data-testid="issue-last-release" className="max-w-full break-all">
          <span>
            Last seen in <ReleaseLink projectId={issue.projectId} version={issue.lastRelease} />
          </span>
        </Badge>
      ) : null}
    </>
  );
}

/** "Resolved in release 1.2.0" / "Resolved in the next release (after 1.1.0)": the badge's and the activity's words. */
export function resolvedInReleaseText(version: string, next: boolean): string {
  return next ? `Resolved in the next release (after ${cleanText(version)})` : `Resolved in release ${cleanText(version)}`;
}

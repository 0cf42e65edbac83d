import type { IssueDetail } from "@/shared/triage.views";
import { trpc } from "@/client/lib/trpc";
import { cleanText } from "@/client/lib/untrusted-text";

/**
 * Where the latest exception broke (its crashing frame), shown beside the culprit, which follows
 * Sentry's rule (the SDK's culprit, else the transaction) and so may name a route instead of code.
 * Read from the latest exception's stored document; nothing is shown while it loads or fails.
 */
export function IssueLocation({ issue }: { issue: IssueDetail }) {
  const latest = trpc.exception.get.useQuery(
    { projectId: issue.projectId, exceptionId: issue.latestExceptionId ?? "" },
    { enabled: issue.latestExceptionId !== null, retry: false },
  );
  const location = latest.data?.data.location;
  if (typeof location !== "string" || location === "" || location === issue.culprit) return null;
  return (
    <p className="font-mono text-sm break-all text-muted-foreground" data-testid="issue-location">
      <span className="font-sans text-xs">Location </span>
      {cleanText(location)}
    </p>
  );
}

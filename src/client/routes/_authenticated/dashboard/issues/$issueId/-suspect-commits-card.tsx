import { Link } from "@tanstack/react-router";
import { GitCommitIcon, RocketIcon } from "lucide-react";
import { trpc } from "@/client/lib/trpc";
import { formatDateTime } from "@/client/lib/format";
import { cleanText } from "@/client/lib/untrusted-text";
import { QueryErrorAlert } from "@/client/components/query-error-alert";
import { RelativeTime } from "@/client/components/relative-time";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";
import { Skeleton } from "@/client/components/ui/skeleton";

/**
 * The commits of the issue's first release that touched the files of its latest stack trace (a
 * likely cause), and when that release was first deployed. Shown only for an issue first seen in
 * a release.
 */
export function SuspectCommitsCard({ projectId, issueId }: { projectId: string; issueId: string }) {
  const suspects = trpc.release.suspectCommits.useQuery({ projectId, issueId });
  if (suspects.data && suspects.data.release === null) return null;
  return (
    <Card className="gap-4" data-testid="suspect-commits">
      <CardHeader>
        <CardTitle>Suspect commits</CardTitle>
        <CardDescription>
          {suspects.data?.release ? (
            <>
              Commits of{" "}
              <Link to="/dashboard/releases/$version" params={{ version: suspects.data.release }} search={{ projectId }} className="font-mono underline">
                {cleanText(suspects.data.release)}
              </Link>{" "}
              that touched files of the stack trace
            </>
          ) : (
            "Commits of the issue's first release that touched files of its stack trace"
          )}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {suspects.isPending ? (
          <Skeleton className="h-12 w-full" />
        ) : suspects.error ? (
          <QueryErrorAlert error={suspects.error} onRetry={() => void suspects.refetch()} title="Could not load suspect commits" />
        ) : (
          <>
            {suspects.data.commits.length === 0 ? (
              <p className="text-sm text-muted-foreground">No commit of this release touched a file of the stack trace (or none was attached).</p>
            ) : (
              <ul className="grid gap-3">
                {suspects.data.commits.map((commit) => (
                  <li key={commit.commitId} className="flex gap-2 text-sm" data-testid="suspect-commit">
                    <GitCommitIcon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
                    <div className="grid min-w-0 gap-0.5">
                      <span className="font-medium">{cleanText(commit.message?.split("\n")[0] || "(no message)")}</span>
                      <span className="text-xs text-muted-foreground">
                        {cleanText(commit.authorName ?? commit.authorEmail ?? "unknown author")} · <code>{commit.commitId.slice(0, 12)}</code>
                        {commit.dateCommitted ? (
                          <>
                            {" · "}
                            <RelativeTime date={commit.dateCommitted} />
                          </>
                        ) : null}
                      </span>
                      <span className="truncate text-xs text-muted-foreground" title={commit.matchedFiles.join("\n")}>
                        {commit.matchedFiles.map(cleanText).join(", ")}
                      </span>
                    </div>
                  </li>
                ))}
              </ul>
            )}
            {suspects.data.firstDeploy ? (
              <p className="flex items-center gap-2 text-xs text-muted-foreground" data-testid="first-deploy">
                <RocketIcon className="size-3.5" aria-hidden />
                First deployed to {cleanText(suspects.data.firstDeploy.environment)} on {formatDateTime(suspects.data.firstDeploy.dateFinished)}
              </p>
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}

import type { ReleaseCommitView } from "@/shared/release.views";
import { cleanText } from "@/client/lib/untrusted-text";
import { RelativeTime } from "@/client/components/relative-time";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";

/** The release's commits, newest first, as sentry-cli `releases set-commits` sent them. */
export function ReleaseCommitsCard({ commits, version }: { commits: ReleaseCommitView[]; version: string }) {
  return (
    <Card className="gap-4" data-testid="release-commits">
      <CardHeader>
        <CardTitle>Commits</CardTitle>
        <CardDescription>Newest first</CardDescription>
      </CardHeader>
      <CardContent>
        {commits.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            No commits attached. Run <code>sentry-cli releases set-commits {version} --auto</code> in your repository.
          </p>
        ) : (
          <ul className="grid gap-3">
            {commits.map((commit) => (
              <li key={commit.commitId} className="grid gap-0.5 text-sm" data-testid="release-commit">
                <span className="font-medium">{cleanText(commit.message?.split("\n")[0] || "(no message)")}</span>
                <span className="text-xs text-muted-foreground">
                  <code>{commit.commitId.slice(0, 12)}</code>
                  {commit.repository ? ` · ${cleanText(commit.repository)}` : ""} · {cleanText(commit.authorName ?? commit.authorEmail ?? "unknown author")}
                  {commit.dateCommitted ? (
                    <>
                      {" · "}
                      <RelativeTime date={commit.dateCommitted} />
                    </>
                  ) : null}
                  {commit.files.length > 0 ? ` · ${commit.files.length} ${commit.files.length === 1 ? "file" : "files"}` : ""}
                </span>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

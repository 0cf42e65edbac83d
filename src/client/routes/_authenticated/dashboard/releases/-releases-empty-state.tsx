import type { ProjectView } from "@/client/lib/trpc";
import { CodeBlock } from "@/client/components/code-block";

/** No release yet: how sentry-cli creates one, with the project's slug filled in. */
export function ReleasesEmptyState({ project, filtered }: { project: ProjectView; filtered: boolean }) {
  if (filtered) return <p className="px-4 py-10 text-center text-sm text-muted-foreground">No releases match these filters.</p>;
  const commands = [
    `export SENTRY_URL=${window.location.origin} SENTRY_AUTH_TOKEN=flt_YOUR_TOKEN`,
    'VERSION="$(sentry-cli releases propose-version)"',
    `sentry-cli releases new "$VERSION" --project ${project.slug}`,
    'sentry-cli releases set-commits "$VERSION" --auto',
    'sentry-cli releases finalize "$VERSION"',
    'sentry-cli releases deploys "$VERSION" new -e production',
  ].join("\n");
  return (
    <div className="grid gap-3 p-6" data-testid="releases-empty">
      <p className="font-medium">No releases yet</p>
      <p className="text-sm text-muted-foreground">
        A release is the version your SDK sends with each event and session (the <code>release</code> option). Create releases from your build with sentry-cli,
        pointed at this server, to see their health, commits, deploys and the issues they introduced:
      </p>
      <CodeBlock code={commands} label="sentry-cli commands" testId="releases-cli" />
      <p className="text-sm text-muted-foreground">
        The token is an organization API token with the <code>project:releases</code> scope (Settings → Organization → API tokens). Set the same version as{" "}
        <code>release</code> in the SDK so sessions and events are counted against it.
      </p>
    </div>
  );
}

import { createFileRoute, Link, notFound, redirect, type SearchSchemaInput } from "@tanstack/react-router";
import { ArrowLeftIcon } from "lucide-react";
import { ISSUE_DETAIL_PRELOAD_SIZE } from "@/shared/constants";
import { trpc, trpcErrorCode } from "@/client/lib/trpc";
import { followLinkOrNotFound } from "@/client/lib/link-organization";
import { useRememberProject } from "@/client/lib/remembered-project";
import { NotFoundView } from "@/client/components/not-found-view";
import { PendingView } from "@/client/components/pending-view";
import { QueryErrorAlert } from "@/client/components/query-error-alert";
import { Button } from "@/client/components/ui/button";
import { IssueScopeSearch, projectOfIssue, Uuid, type IssueScopeSearchInput } from "./-issue-search";
import { IssueScreenError } from "./-issue-screen-error";
import { IssueHeader } from "./-issue-header";
import { IssueFactsCard } from "./-issue-facts-card";
import { IssueOccurrencesCard } from "./-issue-occurrences-card";
import { IssueTagsCard } from "./-issue-tags-card";
import { IssueActivityCard } from "./-issue-activity-card";
import { IssueReleasesCard } from "./-issue-releases-card";
import { IssueActionsMenu } from "@/client/components/waf/issue-actions-menu";
import { IssueExportMenu } from "./-issue-export-menu";
import { LatestExceptionsCard } from "./-latest-exceptions-card";
import { LatestStackTrace } from "./-latest-stack-trace";
import { SimilarIssuesCard } from "./-similar-issues-card";
import { SuspectCommitsCard } from "./-suspect-commits-card";
import { WhyGroupedCard } from "./-why-grouped-card";

export const Route = createFileRoute("/_authenticated/dashboard/issues/$issueId/")({
  validateSearch: (search: IssueScopeSearchInput & SearchSchemaInput) => IssueScopeSearch.parse(search),
  loaderDeps: ({ search }) => ({ projectId: search.projectId }),
  // Spec §2: the issue and its first 5 exceptions are loaded before the screen shows.
  loader: async (args) => {
    const { context, params, deps } = args;
    if (!context.activeOrganizationId) return;
    if (!Uuid.safeParse(params.issueId).success) throw notFound();
    if (!deps.projectId) {
      const projectId = await projectOfIssue(args, params.issueId);
      throw redirect({ to: "/dashboard/issues/$issueId", params, search: { projectId }, replace: true });
    }
    const scope = { projectId: deps.projectId, issueId: params.issueId };
    try {
      await Promise.all([
        context.trpc.issue.get.ensureData(scope),
        context.trpc.exception.list.ensureData({ ...scope, page: 1, size: ISSUE_DETAIL_PRELOAD_SIZE }),
      ]);
    } catch (error) {
      // Another of the user's organizations may hold it (a link from an alert mail).
      if (trpcErrorCode(error) === "NOT_FOUND") await followLinkOrNotFound(args, { kind: "issue", id: params.issueId });
      throw error;
    }
  },
  component: IssueScreen,
  notFoundComponent: () => <NotFoundView />,
  errorComponent: IssueScreenError,
});

function IssueScreen() {
  const { activeOrganizationId } = Route.useRouteContext();
  const { projectId } = Route.useSearch();
  if (!activeOrganizationId) return <NotFoundView type="organization" />;
  // Without a project the loader is redirecting to the issue's own.
  if (!projectId) return <PendingView />;
  return <IssueDetailScreen projectId={projectId} />;
}

function IssueDetailScreen({ projectId }: { projectId: string }) {
  const { issueId } = Route.useParams();
  const issue = trpc.issue.get.useQuery({ projectId, issueId });
  // The suspect-commits card asks the same; the query is shared.
  const suspects = trpc.release.suspectCommits.useQuery({ projectId, issueId });
  const firstDeploy = suspects.data?.release && suspects.data.firstDeploy ? { version: suspects.data.release, ...suspects.data.firstDeploy } : null;
  // An issue found in this project proves the project is the organization's: the list screens open on it next.
  useRememberProject(issue.data ? projectId : undefined);

  if (issue.isPending) return <PendingView />;
  if (issue.error) {
    if (trpcErrorCode(issue.error) === "NOT_FOUND") return <NotFoundView />;
    return <QueryErrorAlert error={issue.error} onRetry={() => void issue.refetch()} title="Could not load the issue" />;
  }

  return (
    <div className="grid gap-6 grid-cols-[minmax(0,1fr)]" data-testid="issue-detail" data-issue-id={issue.data.id}>
      <div>
        <div className="mb-3 flex items-center justify-between gap-2">
          <Button asChild variant="ghost" size="sm" className="-ml-2">
            <Link to="/dashboard/issues" search={{ projectId }}>
              <ArrowLeftIcon /> Issues
            </Link>
          </Button>
          <div className="flex items-center gap-2">
            <IssueExportMenu projectId={projectId} issueId={issueId} />
            <IssueActionsMenu projectId={projectId} issueId={issueId} />
          </div>
        </div>
        <IssueHeader issue={issue.data} />
      </div>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <div className="grid min-w-0 content-start gap-6">
          <LatestStackTrace projectId={projectId} latestExceptionId={issue.data.latestExceptionId} />
          <IssueOccurrencesCard projectId={projectId} issueId={issueId} />
          <LatestExceptionsCard issue={issue.data} />
          <IssueTagsCard tags={issue.data.tags} />
        </div>
        <div className="grid min-w-0 content-start gap-6">
          <IssueFactsCard issue={issue.data} />
          <IssueReleasesCard projectId={projectId} releases={issue.data.releases} />
          <SuspectCommitsCard projectId={projectId} issueId={issueId} />
          <WhyGroupedCard projectId={projectId} issueId={issueId} />
          <SimilarIssuesCard projectId={projectId} issueId={issueId} />
          <IssueActivityCard activity={issue.data.activity} deploy={firstDeploy} />
        </div>
      </div>
    </div>
  );
}

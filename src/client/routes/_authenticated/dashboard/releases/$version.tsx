import { createFileRoute, Link, redirect, type ErrorComponentProps, type SearchSchemaInput } from "@tanstack/react-router";
import { ArrowLeftIcon } from "lucide-react";
import type { ReleaseDetail } from "@/shared/release.views";
import { trpc, trpcErrorCode, type ProjectView } from "@/client/lib/trpc";
import { formatDateTime, formatNumber } from "@/client/lib/format";
import { firstProjectToRedirectTo } from "@/client/lib/project-loader";
import { cleanText } from "@/client/lib/untrusted-text";
import { ProjectScopedScreen } from "@/client/components/project-scoped-screen";
import { ErrorView } from "@/client/components/error-view";
import { NotFoundView } from "@/client/components/not-found-view";
import { PageHeader } from "@/client/components/page-header";
import { PendingView } from "@/client/components/pending-view";
import { QueryErrorAlert } from "@/client/components/query-error-alert";
import { RelativeTime } from "@/client/components/relative-time";
import { Badge } from "@/client/components/ui/badge";
import { Button } from "@/client/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";
import { percentText } from "./-release-health-text";
import { ReleaseHealthChart } from "./-release-health-chart";
import { ReleaseIssuesCard } from "./-release-issues-card";
import { ReleaseCommitsCard } from "./-release-commits-card";
import { ReleaseSearch, type ReleaseSearchInput } from "./-releases-search";

/** One release of a project: `/dashboard/releases/<version>?projectId=<uuid>` (the issue page's release badges link here). */
export const Route = createFileRoute("/_authenticated/dashboard/releases/$version")({
  validateSearch: (search: ReleaseSearchInput & SearchSchemaInput) => ReleaseSearch.parse(search),
  loaderDeps: ({ search }) => search,
  loader: async (args) => {
    const firstProjectId = await firstProjectToRedirectTo(args, args.deps.projectId);
    if (firstProjectId)
      throw redirect({ to: "/dashboard/releases/$version", params: args.params, search: { ...args.deps, projectId: firstProjectId }, replace: true });
  },
  component: ReleaseScreen,
  errorComponent: ReleaseErrorView,
});

function ReleaseScreen() {
  const search = Route.useSearch();
  const { version } = Route.useParams();
  return (
    <ProjectScopedScreen title="Release" projectId={search.projectId}>
      {(project) => <ReleaseView project={project} version={version} environment={search.environment} />}
    </ProjectScopedScreen>
  );
}

function ReleaseView({ project, version, environment }: { project: ProjectView; version: string; environment: string | undefined }) {
  const release = trpc.release.detail.useQuery({ projectId: project.id, version, environment });
  const back = (
    <Button asChild variant="ghost" size="sm">
      <Link to="/dashboard/releases" search={{ projectId: project.id, environment }}>
        <ArrowLeftIcon /> Releases
      </Link>
    </Button>
  );
  if (release.isPending) return <PendingView />;
  if (release.error)
    return (
      <>
        <PageHeader title={version} actions={back} />
        {trpcErrorCode(release.error) === "NOT_FOUND" ? (
          <NotFoundView type="release" />
        ) : (
          <QueryErrorAlert error={release.error} onRetry={() => void release.refetch()} title="Could not load the release" />
        )}
      </>
    );
  const data = release.data;
  return (
    <>
      <PageHeader
        title={cleanText(data.version)}
        description={
          <span className="flex flex-wrap items-center gap-2">
            {data.status === "archived" ? <Badge variant="outline">archived</Badge> : null}
            <span>
              {project.name}
              {environment ? ` · ${environment}` : " · all environments"} · created <RelativeTime date={data.dateCreated} />
              {data.dateReleased ? ` · released ${formatDateTime(data.dateReleased)}` : " · not finalized"}
              {data.ref ? ` · ref ${cleanText(data.ref)}` : ""}
            </span>
          </span>
        }
        actions={back}
      />
      <div className="grid gap-4 grid-cols-[minmax(0,1fr)]" data-testid="release-detail">
        <HealthStats data={data} />
        <Card className="gap-4">
          <CardHeader>
            <CardTitle>Sessions per day</CardTitle>
            <CardDescription>Last {data.healthByDay.length} days (UTC)</CardDescription>
          </CardHeader>
          <CardContent>
            <ReleaseHealthChart days={data.healthByDay} />
          </CardContent>
        </Card>
        <div className="grid gap-4 lg:grid-cols-2">
          <ReleaseIssuesCard
            title="New issues"
            description="First seen in this release"
            empty="No issue was first seen in this release."
            issues={data.newIssueList}
            projectId={project.id}
            testId="release-new-issues"
          />
          <ReleaseIssuesCard
            title="Regressed issues"
            description="Resolved issues that came back while this release was sending events"
            empty="No issue regressed in this release."
            issues={data.regressedIssues}
            projectId={project.id}
            testId="release-regressed-issues"
          />
          <ReleaseCommitsCard commits={data.commits} version={data.version} />
          <div className="grid content-start gap-4">
            <DeploysCard data={data} />
            <Card className="gap-2" data-testid="release-artifacts">
              <CardHeader>
                <CardTitle>Source maps</CardTitle>
              </CardHeader>
              <CardContent className="text-sm">
                {formatNumber(data.artifactBundles)} {data.artifactBundles === 1 ? "bundle" : "bundles"} uploaded for this release.{" "}
                <Link to="/dashboard/projects/$projectId/settings" params={{ projectId: project.id }} className="underline">
                  Manage source maps
                </Link>
              </CardContent>
            </Card>
          </div>
        </div>
      </div>
    </>
  );
}

function HealthStats({ data }: { data: ReleaseDetail }) {
  const stats: [string, string, string][] = [
    ["Crash-free sessions", percentText(data.health.crashFreeSessions), "crash-free-sessions"],
    ["Crash-free users", percentText(data.health.crashFreeUsers), "crash-free-users"],
    ["Sessions", formatNumber(data.health.sessions), "sessions"],
    ["Adoption (24 h)", percentText(data.health.adoption), "adoption"],
    ["Events", formatNumber(data.events), "events"],
  ];
  return (
    <div className="grid gap-4 sm:grid-cols-3 lg:grid-cols-5" data-testid="release-health">
      {stats.map(([label, value, testId]) => (
        <Card key={label} className="gap-1 py-4">
          <CardContent className="grid gap-1 px-4">
            <span className="text-xs text-muted-foreground">{label}</span>
            <span className="text-xl font-semibold tabular-nums" data-testid={`release-${testId}`}>
              {value}
            </span>
          </CardContent>
        </Card>
      ))}
    </div>
  );
}

function DeploysCard({ data }: { data: ReleaseDetail }) {
  return (
    <Card className="gap-4" data-testid="release-deploys">
      <CardHeader>
        <CardTitle>Deploys</CardTitle>
      </CardHeader>
      <CardContent>
        {data.deployList.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            Not deployed yet. Record a deploy with <code>sentry-cli releases deploys {data.version} new -e production</code>.
          </p>
        ) : (
          <ul className="grid gap-2 text-sm">
            {data.deployList.map((deploy) => (
              <li key={deploy.id} className="flex flex-wrap items-baseline gap-2" data-testid="release-deploy">
                <Badge variant="secondary">{cleanText(deploy.environment)}</Badge>
                <span className="text-muted-foreground">
                  {deploy.name ? `${cleanText(deploy.name)} · ` : ""}finished <RelativeTime date={deploy.dateFinished} />
                </span>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function ReleaseErrorView(props: ErrorComponentProps) {
  return (
    <>
      <PageHeader title="Release" />
      <ErrorView {...props} description="The release could not be loaded." />
    </>
  );
}

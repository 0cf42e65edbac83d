import { ListReleasesInput, ReleaseInput, SuspectCommitsInput } from "../../shared/release.inputs";
import { ReleaseDetail, ReleasePage, SuspectCommits } from "../../shared/release.views";
import { queryOf } from "../rest/input";
import { PROJECT_PATH, type RestRoute } from "../rest/rest-route";
import * as service from "./release.service";

const RELEASES = `${PROJECT_PATH}/releases`;
const tag = "Releases";

/** REST twins of release.* (tRPC); path ids win over the query. */
export const releaseRestRoutes: RestRoute[] = [
  {
    method: "get",
    path: RELEASES,
    summary:
      "List the project's releases, newest first, with health (sessions, crash-free sessions and users, adoption); `?environment=` as the SDK named it; archived ones with `?status=archived|all`",
    tag,
    input: ListReleasesInput,
    output: ReleasePage,
    response: "A page of releases",
    access: "organization",
    tokenScope: "project:read",
    handler: (ctx, req) => service.listReleases(ctx, ListReleasesInput.parse(queryOf(req))),
  },
  {
    method: "get",
    path: `${RELEASES}/:version`,
    summary: "Get one release: health per day, commits, deploys, new and regressed issues, artifact bundles",
    tag,
    input: ReleaseInput,
    output: ReleaseDetail,
    response: "The release",
    access: "organization",
    tokenScope: "project:read",
    handler: (ctx, req) => service.getRelease(ctx, ReleaseInput.parse(queryOf(req))),
  },
  {
    method: "get",
    path: `${PROJECT_PATH}/issues/:issueId/suspect-commits`,
    summary: "The commits of the issue's first release that touched files of its latest stack trace, newest first, and that release's first deploy",
    tag,
    input: SuspectCommitsInput,
    output: SuspectCommits,
    response: "The suspect commits",
    access: "organization",
    tokenScope: "project:read",
    handler: (ctx, req) => service.getSuspectCommits(ctx, SuspectCommitsInput.parse(queryOf(req))),
  },
];

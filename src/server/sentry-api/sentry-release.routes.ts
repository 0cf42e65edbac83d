import type { Request, RequestHandler, Router } from "express";
import type { SentryContext } from "./sentry-auth";
import { requireScope } from "./sentry-auth";
import { listReleaseCommits, previousReleaseWithCommits } from "./sentry-commits";
import { createDeploy, listDeploys } from "./sentry-deploys";
import { projectByRef } from "./sentry-projects";
import { createRelease, getRelease, listReleases, removeRelease, updateReleaseByVersion } from "./sentry-releases";
import { createRepo, listRepos } from "./sentry-repos";

/** A route's work once the token and its organization are checked; `{status, body}` answers another status. */
export type SentryHandler = (ctx: SentryContext, req: Request) => Promise<unknown>;
type OrgRoute = (handler: SentryHandler, status?: number) => RequestHandler[];

const READ = ["project:releases", "project:read"] as const;
const version = (req: Request) => String(req.params.version);
const project = async (ctx: SentryContext, req: Request) => (await projectByRef(ctx, String(req.params.project))).id;

/**
 * Releases, their commits and deploys, and the repositories commits name: what `sentry-cli
 * releases …`, `releases set-commits` and `deploys …` call (docs/sentry-tool-api.md). Reads take
 * `project:releases` or `project:read`; writes `project:releases` and the creator's `release:manage`.
 */
export function sentryReleaseRoutes(router: Router, org: OrgRoute) {
  const read = (handler: SentryHandler): RequestHandler[] =>
    org(async (ctx, req) => {
      requireScope(ctx, ...READ);
      return handler(ctx, req);
    });
  const write = (handler: SentryHandler): RequestHandler[] =>
    org(async (ctx, req) => {
      requireScope(ctx, "project:releases");
      return handler(ctx, req);
    });

  router.get("/organizations/:org/releases/", ...read((ctx, req) => listReleases(ctx, null, req)));
  router.post("/organizations/:org/releases/", ...write((ctx, req) => createRelease(ctx, req.body ?? {})));
  router.get("/organizations/:org/releases/:version/", ...read((ctx, req) => getRelease(ctx, version(req))));
  router.put("/organizations/:org/releases/:version/", ...write((ctx, req) => updateReleaseByVersion(ctx, version(req), req.body ?? {})));
  router.delete("/organizations/:org/releases/:version/", ...write((ctx, req) => removeRelease(ctx, version(req))));
  router.get("/organizations/:org/releases/:version/commits/", ...read((ctx, req) => listReleaseCommits(ctx, version(req))));
  router.get("/organizations/:org/releases/:version/previous-with-commits/", ...read((ctx, req) => previousReleaseWithCommits(ctx, version(req))));
  router.get("/organizations/:org/releases/:version/deploys/", ...read((ctx, req) => listDeploys(ctx, version(req))));
  router.post("/organizations/:org/releases/:version/deploys/", ...write((ctx, req) => createDeploy(ctx, version(req), req.body ?? {})));
  router.get("/organizations/:org/repos/", ...read((ctx) => listRepos(ctx)));
  router.post("/organizations/:org/repos/", ...write((ctx, req) => createRepo(ctx, req.body ?? {})));

  // The project-scoped twins sentry-cli 2.x calls when it works with a single project: only a
  // release of that project answers (404 for any other, as Sentry).
  router.get("/projects/:org/:project/releases/", ...read(async (ctx, req) => listReleases(ctx, await project(ctx, req), req)));
  router.post("/projects/:org/:project/releases/", ...write(async (ctx, req) => createRelease(ctx, req.body ?? {}, [await project(ctx, req)])));
  router.get("/projects/:org/:project/releases/:version/", ...read(async (ctx, req) => getRelease(ctx, version(req), await project(ctx, req))));
  router.put(
    "/projects/:org/:project/releases/:version/",
    ...write(async (ctx, req) => updateReleaseByVersion(ctx, version(req), req.body ?? {}, await project(ctx, req))),
  );
  router.delete("/projects/:org/:project/releases/:version/", ...write(async (ctx, req) => removeRelease(ctx, version(req), await project(ctx, req))));
  router.get("/projects/:org/:project/releases/:version/commits/", ...read(async (ctx, req) => listReleaseCommits(ctx, version(req), await project(ctx, req))));
}

import { Router } from "express";
import { MergeIssuesInput, UnmergeIssueInput } from "../../shared/grouping.inputs";
import { IssueScope } from "../../shared/triage.inputs";
import type { AppServices } from "../context";
import { orgRoute } from "../rest/context";
import { bodyOf, queryOf } from "../rest/input";
import * as service from "./issue-grouping.service";

const ISSUES = "/organizations/:orgId/projects/:projectId/issues";

/** REST twins of issue.merge / unmerge / fingerprints / similar; path ids override the body's. */
export function issueGroupingRestRoutes(services: AppServices) {
  const routes = Router();
  routes.post(
    `${ISSUES}/merge`,
    orgRoute(services, (ctx, req) => service.mergeIssues(ctx, MergeIssuesInput.parse(bodyOf(req)))),
  );
  routes.post(
    `${ISSUES}/:issueId/unmerge`,
    orgRoute(services, (ctx, req) => service.unmergeIssue(ctx, UnmergeIssueInput.parse(bodyOf(req)))),
  );
  routes.get(
    `${ISSUES}/:issueId/fingerprints`,
    orgRoute(services, (ctx, req) => service.listIssueFingerprints(ctx, IssueScope.parse(queryOf(req)))),
  );
  routes.get(
    `${ISSUES}/:issueId/similar`,
    orgRoute(services, (ctx, req) => service.similarIssues(ctx, IssueScope.parse(queryOf(req)))),
  );
  return routes;
}

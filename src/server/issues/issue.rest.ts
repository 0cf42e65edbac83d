import { Router } from "express";
import { BulkSetIssueStatusInput, IssueScope, ListIssuesInput, SetIssueSeverityInput, SetIssueStatusInput } from "../../shared/triage.inputs";
import { orgRoute } from "../rest/context";
import { bodyOf, queryOf } from "../rest/input";
import type { AppServices } from "../context";
import * as service from "./issue.service";

const ISSUES = "/organizations/:orgId/projects/:projectId/issues";

/** REST twins of issue.* (spec §7); path ids override anything the query or body says. */
export function issueRestRoutes(services: AppServices) {
  const routes = Router();
  routes.get(
    ISSUES,
    orgRoute(services, (ctx, req) => service.listIssues(ctx, ListIssuesInput.parse(queryOf(req)))),
  );
  // Registered before `/:issueId/...` only for readability: the segment counts differ.
  routes.post(
    `${ISSUES}/bulk-status`,
    orgRoute(services, (ctx, req) => service.bulkSetIssueStatus(ctx, BulkSetIssueStatusInput.parse(bodyOf(req)))),
  );
  routes.get(
    `${ISSUES}/:issueId`,
    orgRoute(services, (ctx, req) => service.getIssue(ctx, IssueScope.parse(req.params))),
  );
  routes.put(
    `${ISSUES}/:issueId/status`,
    orgRoute(services, (ctx, req) => service.setIssueStatus(ctx, SetIssueStatusInput.parse(bodyOf(req)))),
  );
  routes.put(
    `${ISSUES}/:issueId/severity`,
    orgRoute(services, (ctx, req) => service.setIssueSeverity(ctx, SetIssueSeverityInput.parse(bodyOf(req)))),
  );
  return routes;
}

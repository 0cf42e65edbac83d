import { BulkSetIssueStatusInput, IssueScope, ListIssuesInput, SetIssueSeverityInput, SetIssueStatusInput } from "../../shared/triage.inputs";
import { BulkStatusResult, IssueDetail, IssuePage } from "../../shared/triage.views";
import { bodyOf, queryOf } from "../rest/input";
import { PROJECT_PATH, type RestRoute } from "../rest/rest-route";
import * as service from "./issue.service";

const ISSUES = `${PROJECT_PATH}/issues`;
const tag = "Issues";

/** REST twins of issue.* (spec §7); path ids override anything the query or body says. */
export const issueRestRoutes: RestRoute[] = [
  {
    method: "get",
    path: ISSUES,
    summary: "List issues",
    tag,
    input: ListIssuesInput,
    output: IssuePage,
    response: "A page of issues",
    access: "organization",
    tokenScope: "event:read",
    handler: (ctx, req) => service.listIssues(ctx, ListIssuesInput.parse(queryOf(req))),
  },
  {
    method: "post",
    path: `${ISSUES}/bulk-status`,
    summary: "Set the status of several issues (RESOLVED may name inRelease, as for one issue)",
    tag,
    input: BulkSetIssueStatusInput,
    output: BulkStatusResult,
    response: "How many issues changed status",
    access: "organization",
    tokenScope: "event:write",
    permission: "issue:triage",
    handler: (ctx, req) => service.bulkSetIssueStatus(ctx, BulkSetIssueStatusInput.parse(bodyOf(req))),
  },
  {
    method: "get",
    path: `${ISSUES}/:issueId`,
    summary: "Get an issue",
    tag,
    input: IssueScope,
    output: IssueDetail,
    response: "The issue with its tags breakdown and activity",
    access: "organization",
    tokenScope: "event:read",
    handler: (ctx, req) => service.getIssue(ctx, IssueScope.parse(req.params)),
  },
  {
    method: "put",
    path: `${ISSUES}/:issueId/status`,
    summary: 'Set an issue\'s status (RESOLVED may name inRelease: a release version, or "next")',
    tag,
    input: SetIssueStatusInput,
    output: IssueDetail,
    response: "The updated issue",
    access: "organization",
    tokenScope: "event:write",
    permission: "issue:triage",
    handler: (ctx, req) => service.setIssueStatus(ctx, SetIssueStatusInput.parse(bodyOf(req))),
  },
  {
    method: "put",
    path: `${ISSUES}/:issueId/severity`,
    summary: "Set an issue's severity",
    tag,
    input: SetIssueSeverityInput,
    output: IssueDetail,
    response: "The updated issue",
    access: "organization",
    tokenScope: "event:write",
    permission: "issue:triage",
    handler: (ctx, req) => service.setIssueSeverity(ctx, SetIssueSeverityInput.parse(bodyOf(req))),
  },
];

import { MergeIssuesInput, UnmergeIssueInput } from "../../shared/grouping.inputs";
import { IssueFingerprintList, IssueList, SimilarIssueList } from "../../shared/grouping.views";
import { IssueScope } from "../../shared/triage.inputs";
import { IssueDetail } from "../../shared/triage.views";
import { bodyOf, queryOf } from "../rest/input";
import { PROJECT_PATH, type RestRoute } from "../rest/rest-route";
import * as service from "./issue-grouping.service";

const ISSUES = `${PROJECT_PATH}/issues`;
const tag = "Issues";

/** REST twins of issue.merge / unmerge / fingerprints / similar; path ids override the body's. */
export const issueGroupingRestRoutes: RestRoute[] = [
  {
    method: "post",
    path: `${ISSUES}/merge`,
    summary: "Merge issues into one",
    tag,
    input: MergeIssuesInput,
    output: IssueDetail,
    response: "The merged issue, with the events, counts and fingerprints of all",
    access: "organization",
    tokenScope: "event:write",
    permission: "issue:triage",
    handler: (ctx, req) => service.mergeIssues(ctx, MergeIssuesInput.parse(bodyOf(req))),
  },
  {
    method: "post",
    path: `${ISSUES}/:issueId/unmerge`,
    summary: "Split fingerprints out of an issue",
    tag,
    input: UnmergeIssueInput,
    output: IssueList,
    response: "The issues split out, one per fingerprint",
    access: "organization",
    tokenScope: "event:write",
    permission: "issue:triage",
    handler: (ctx, req) => service.unmergeIssue(ctx, UnmergeIssueInput.parse(bodyOf(req))),
  },
  {
    method: "get",
    path: `${ISSUES}/:issueId/fingerprints`,
    summary: "An issue's fingerprints (why grouped)",
    tag,
    input: IssueScope,
    output: IssueFingerprintList,
    response: "Each fingerprint with its grouping components and recent event count",
    access: "organization",
    tokenScope: "event:read",
    handler: (ctx, req) => service.listIssueFingerprints(ctx, IssueScope.parse(queryOf(req))),
  },
  {
    method: "get",
    path: `${ISSUES}/:issueId/similar`,
    summary: "Issues similar to this one",
    tag,
    input: IssueScope,
    output: SimilarIssueList,
    response: "Other issues with the same crashing frame or exception type and a close message",
    access: "organization",
    tokenScope: "event:read",
    handler: (ctx, req) => service.similarIssues(ctx, IssueScope.parse(queryOf(req))),
  },
];

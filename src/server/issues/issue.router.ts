import {
  BulkSetIssueStatusInput,
  IssueScope,
  ListIssuesInput,
  LocateIssueInput,
  ProjectScope,
  SetIssueSeverityInput,
  SetIssueStatusInput,
} from "../../shared/triage.inputs";
import { orgProcedure, router } from "../trpc/init";
import { MergeIssuesInput, UnmergeIssueInput } from "../../shared/grouping.inputs";
import * as grouping from "./issue-grouping.service";
import * as service from "./issue.service";
import { listReleaseChoices } from "./issue-release-resolution";

export const issueRouter = router({
  list: orgProcedure.input(ListIssuesInput).query(({ ctx, input }) => service.listIssues(ctx, input)),
  locate: orgProcedure.input(LocateIssueInput).query(({ ctx, input }) => service.locateIssue(ctx, input)),
  get: orgProcedure.input(IssueScope).query(({ ctx, input }) => service.getIssue(ctx, input)),
  setStatus: orgProcedure.input(SetIssueStatusInput).mutation(({ ctx, input }) => service.setIssueStatus(ctx, input)),
  setSeverity: orgProcedure.input(SetIssueSeverityInput).mutation(({ ctx, input }) => service.setIssueSeverity(ctx, input)),
  bulkSetStatus: orgProcedure.input(BulkSetIssueStatusInput).mutation(({ ctx, input }) => service.bulkSetIssueStatus(ctx, input)),
  merge: orgProcedure.input(MergeIssuesInput).mutation(({ ctx, input }) => grouping.mergeIssues(ctx, input)),
  unmerge: orgProcedure.input(UnmergeIssueInput).mutation(({ ctx, input }) => grouping.unmergeIssue(ctx, input)),
  fingerprints: orgProcedure.input(IssueScope).query(({ ctx, input }) => grouping.listIssueFingerprints(ctx, input)),
  // The project's releases for "Resolve in release…" (the releases screens have their own procedures).
  releaseChoices: orgProcedure.input(ProjectScope).query(({ ctx, input }) => listReleaseChoices(ctx, input)),
  similar: orgProcedure.input(IssueScope).query(({ ctx, input }) => grouping.similarIssues(ctx, input)),
});

import { z } from "zod";
import { IssueScope, ProjectScope } from "./triage.inputs";

/** An issue key: the sha256 hex of a grouping's components. */
export const Fingerprint = z.string().regex(/^[0-9a-f]{64}$/, "Invalid fingerprint");

export const MAX_MERGE_ISSUES = 100;

export const MergeIssuesInput = ProjectScope.extend({
  issueIds: z
    .array(z.uuid("Invalid issue id"))
    .min(2, "Select at least two issues to merge")
    .max(MAX_MERGE_ISSUES, `At most ${MAX_MERGE_ISSUES} issues at once`),
  /** The issue that stays, the others merging into it; by default the one with the most events. */
  targetId: z.uuid("Invalid issue id").optional(),
}).refine((input) => input.targetId === undefined || input.issueIds.includes(input.targetId), {
  // A target outside the selection would merge an issue nobody selected (issue 37, item 12).
  message: "The issue that stays must be one of the issues merged",
  path: ["targetId"],
});
export type MergeIssuesInput = z.infer<typeof MergeIssuesInput>;

export const UnmergeIssueInput = IssueScope.extend({
  fingerprints: z
    .array(Fingerprint)
    .min(1, "Choose at least one fingerprint to split out")
    .max(MAX_MERGE_ISSUES, `At most ${MAX_MERGE_ISSUES} fingerprints at once`),
});
export type UnmergeIssueInput = z.infer<typeof UnmergeIssueInput>;

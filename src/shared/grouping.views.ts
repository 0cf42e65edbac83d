import { z } from "zod";
import { IssueListItem } from "./triage.views";

/** One fingerprint of an issue and what it was made of ("why grouped"). */
export const IssueFingerprint = z.object({
  fingerprint: z.string(),
  /** The grouping algorithm that made it (1 or 2). */
  groupingVersion: z.number().int(),
  /** The components the fingerprint hashes (frames, message template, custom parts); null when not recorded. */
  components: z.array(z.string()).nullable(),
  exceptionType: z.string().nullable(),
  crashFrame: z.string().nullable(),
  messageTemplate: z.string().nullable(),
  /** Stored events of this issue carrying this fingerprint. */
  eventCount: z.number().int(),
  /** The fingerprint the issue was created with. */
  primary: z.boolean(),
});
export type IssueFingerprint = z.infer<typeof IssueFingerprint>;
export const IssueFingerprintList = z.array(IssueFingerprint);

export const SIMILARITY_REASONS = ["crashFrame", "exceptionType", "message"] as const;
export const SimilarIssue = z.object({
  issue: IssueListItem,
  /** What the two issues share: the crashing frame, the exception type, a close message. */
  reasons: z.array(z.enum(SIMILARITY_REASONS)),
  /** 0–1: how close the message templates are (token overlap). */
  messageSimilarity: z.number(),
});
export type SimilarIssue = z.infer<typeof SimilarIssue>;
export const SimilarIssueList = z.array(SimilarIssue);

/** The issues an unmerge split out, one per fingerprint. */
export const IssueList = z.array(IssueListItem);

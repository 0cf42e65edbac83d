import { randomUUID } from "node:crypto";
import { and, inArray, sql } from "drizzle-orm";
import type { MergeIssuesInput, UnmergeIssueInput } from "../../shared/grouping.inputs";
import type { IssueFingerprint, SimilarIssue } from "../../shared/grouping.views";
import type { IssueScope } from "../../shared/triage.inputs";
import type { IssueDetail, IssueListItem } from "../../shared/triage.views";
import { issues } from "../db/schema/index";
import { AppError, notFound } from "../errors";
import { issueCulprit, issueTitle } from "../grouping/issue-title";
import { messageSimilarity } from "../grouping/message-similarity";
import type { NormalizedOccurrence } from "../../shared/occurrence.types";
import type { ServiceContext } from "../context";
import { requireProject } from "../projects/project-scope";
import { selectIssueFingerprints, selectSimilarCandidates } from "./issue-fingerprint.queries";
import { lockIssues, mergeInto, recordOwnFingerprints } from "./issue-merge.queries";
import { fingerprintsOf, newestDocument, settleSource, splitOut } from "./issue-unmerge.queries";
import { issueScope, listColumns, selectIssue } from "./issue.queries";
import { getIssue, triageActor } from "./issue.service";
import { toIssueListItem } from "./issue.view";

/**
 * Merge, unmerge, an issue's fingerprints ("why grouped") and similar issues. Merge and unmerge
 * re-point issue_fingerprints, which ingest reads in the statement that stores each event: future
 * events of a merged fingerprint land in the merged issue, those of a split one in its new issue.
 */

/** Merges the issues into the one chosen to stay (default: the one with the most events); answers it. */
export async function mergeIssues(ctx: ServiceContext, input: MergeIssuesInput): Promise<IssueDetail> {
  await requireProject(ctx, input.projectId);
  const actor = await triageActor(ctx, input.projectId);
  const ids = [...new Set(input.issueIds)]; // the target is one of them (MergeIssuesInput)
  if (ids.length < 2) throw new AppError("BAD_REQUEST", "Select at least two different issues to merge");
  const targetId = await ctx.db.transaction(async (tx) => {
    const locked = await lockIssues(tx, actor, ids);
    // One unknown id (or another organization's) fails the whole merge: nothing is half-merged.
    if (locked.length !== ids.length) throw notFound("Issue");
    const target = input.targetId
      ? locked.find((issue) => issue.id === input.targetId)!
      : [...locked].sort((a, b) => Number(b.event_count) - Number(a.event_count) || a.first_seen.valueOf() - b.first_seen.valueOf())[0];
    await recordOwnFingerprints(tx, actor, ids);
    await mergeInto(
      tx,
      actor,
      target,
      locked.filter((issue) => issue.id !== target.id),
    );
    return target.id;
  });
  return getIssue(ctx, { projectId: input.projectId, issueId: targetId });
}

/** Where a split-out issue takes its title from: the newest event of its fingerprint, else the source. */
function splitIssueFrom(document: string | null, source: typeof issues.$inferSelect, fingerprint: string, groupingVersion: number) {
  const occ = document ? (JSON.parse(document) as NormalizedOccurrence) : null;
  return {
    id: randomUUID(),
    fingerprint,
    groupingVersion,
    title: occ ? issueTitle(occ) : source.title,
    culprit: occ ? issueCulprit(occ) : source.culprit,
    level: occ?.level ?? source.level,
    platform: occ?.platform ?? source.platform,
    severity: source.severity,
  };
}

/** Splits the chosen fingerprints out of the issue, one new issue each; answers those issues. */
export async function unmergeIssue(ctx: ServiceContext, input: UnmergeIssueInput): Promise<IssueListItem[]> {
  await requireProject(ctx, input.projectId);
  const actor = await triageActor(ctx, input.projectId);
  const wanted = [...new Set(input.fingerprints)];
  const splitIds = await ctx.db.transaction(async (tx) => {
    const [locked] = await lockIssues(tx, actor, [input.issueId]);
    if (!locked) throw notFound("Issue");
    await recordOwnFingerprints(tx, actor, [input.issueId]);
    const own = await fingerprintsOf(tx, actor, input.issueId);
    const versionOf = new Map(own.map((f) => [f.fingerprint, f.grouping_version]));
    const foreign = wanted.filter((f) => !versionOf.has(f));
    if (foreign.length > 0) throw new AppError("BAD_REQUEST", "These fingerprints do not belong to this issue", { fingerprints: foreign });
    const staying = own.filter((f) => !wanted.includes(f.fingerprint));
    if (staying.length === 0) throw new AppError("BAD_REQUEST", "An issue keeps at least one fingerprint: leave one unselected");

    const source = (await selectIssue(tx, actor.organizationId, actor.projectId, input.issueId))!;
    // issues.fingerprint is unique per project: an issue whose own fingerprint leaves takes one that stays.
    if (wanted.includes(source.fingerprint)) {
      await tx.execute(sql`update issues set fingerprint = ${staying[0].fingerprint} where id = ${input.issueId}::uuid`);
    }
    const ids: string[] = [];
    for (const fingerprint of wanted) {
      const split = splitIssueFrom(await newestDocument(tx, actor, input.issueId, fingerprint), source, fingerprint, versionOf.get(fingerprint)!);
      await splitOut(tx, actor, locked, split);
      ids.push(split.id);
    }
    await settleSource(tx, actor, locked, ids);
    return ids;
  });
  const rows = await ctx.db
    .select(listColumns)
    .from(issues)
    .where(and(issueScope(actor.organizationId, actor.projectId), inArray(issues.id, splitIds)));
  return rows.map(toIssueListItem);
}

async function requireIssueRow(ctx: ServiceContext, scope: IssueScope) {
  await requireProject(ctx, scope.projectId);
  const row = await selectIssue(ctx.db, ctx.org.organizationId, scope.projectId, scope.issueId);
  if (!row) throw notFound("Issue");
  return row;
}

function parseComponents(text: string | null): string[] | null {
  if (!text) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.map(String) : null;
  } catch {
    return null;
  }
}

/** "Why grouped": every fingerprint of the issue with its components and recent event count. */
export async function listIssueFingerprints(ctx: ServiceContext, scope: IssueScope): Promise<IssueFingerprint[]> {
  const issue = await requireIssueRow(ctx, scope);
  const rows = await selectIssueFingerprints(ctx.db, ctx.org.organizationId, scope.projectId, scope.issueId, issue.fingerprint);
  return rows.map((row) => ({
    fingerprint: row.fingerprint,
    groupingVersion: Number(row.grouping_version),
    components: parseComponents(row.components),
    exceptionType: row.exception_type,
    crashFrame: row.crash_frame,
    messageTemplate: row.message_template,
    eventCount: Number(row.event_count),
    primary: row.fingerprint === issue.fingerprint,
  }));
}

const SIMILAR_LIMIT = 10;
/** A shared exception type counts with messages at least this close; message issues need closer ones. */
const TYPE_MESSAGE_THRESHOLD = 0.5;
const MESSAGE_ONLY_THRESHOLD = 0.6;

/**
 * Other issues of the project that may be the same defect: the same crashing frame, or the same
 * exception type with a close message, or (message issues) a close message. From the stored
 * fingerprint parts of both sides; an issue with no recorded parts (made before v2, no event since)
 * has none to offer.
 */
export async function similarIssues(ctx: ServiceContext, scope: IssueScope): Promise<SimilarIssue[]> {
  await requireIssueRow(ctx, scope);
  const { organizationId } = ctx.org;
  const own = await selectIssueFingerprints(ctx.db, organizationId, scope.projectId, scope.issueId, "");
  const frames = [...new Set(own.flatMap((f) => (f.crash_frame ? [f.crash_frame] : [])))];
  const types = [...new Set(own.flatMap((f) => (f.exception_type ? [f.exception_type] : [])))];
  const messages = own.flatMap((f) => (f.message_template ? [f.message_template] : []));
  const messagesOnly = frames.length === 0 && types.length === 0 && messages.length > 0;
  if (frames.length === 0 && types.length === 0 && !messagesOnly) return [];

  const candidates = await selectSimilarCandidates(ctx.db, organizationId, scope.projectId, scope.issueId, frames, types, messagesOnly);
  const best = new Map<string, { reasons: Set<SimilarIssue["reasons"][number]>; similarity: number }>();
  for (const candidate of candidates) {
    const similarity = Math.max(0, ...messages.map((m) => messageSimilarity(m, candidate.message_template)));
    const reasons = new Set<SimilarIssue["reasons"][number]>();
    if (candidate.crash_frame && frames.includes(candidate.crash_frame)) reasons.add("crashFrame");
    if (candidate.exception_type && types.includes(candidate.exception_type) && similarity >= TYPE_MESSAGE_THRESHOLD)
      reasons.add("exceptionType").add("message");
    if (messagesOnly && similarity >= MESSAGE_ONLY_THRESHOLD) reasons.add("message");
    if (reasons.size === 0) continue;
    const seen = best.get(candidate.issue_id);
    if (!seen) best.set(candidate.issue_id, { reasons, similarity });
    else {
      reasons.forEach((r) => seen.reasons.add(r));
      seen.similarity = Math.max(seen.similarity, similarity);
    }
  }
  if (best.size === 0) return [];
  const rows = await ctx.db
    .select(listColumns)
    .from(issues)
    .where(and(issueScope(organizationId, scope.projectId), inArray(issues.id, [...best.keys()])));
  return rows
    .map((row) => {
      const match = best.get(row.id)!;
      return { issue: toIssueListItem(row), reasons: [...match.reasons].sort(), messageSimilarity: Math.round(match.similarity * 100) / 100 };
    })
    .sort(
      (a, b) =>
        Number(b.reasons.includes("crashFrame")) - Number(a.reasons.includes("crashFrame")) ||
        b.messageSimilarity - a.messageSimilarity ||
        b.issue.eventCount - a.issue.eventCount,
    )
    .slice(0, SIMILAR_LIMIT);
}

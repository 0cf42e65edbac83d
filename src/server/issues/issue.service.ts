import type {
  BulkSetIssueStatusInput,
  IssueScope,
  ListIssuesInput,
  LocateIssueInput,
  SetIssueSeverityInput,
  SetIssueStatusInput,
} from "../../shared/triage.inputs";
import type { Paged } from "../../shared/paging";
import type { IssueDetail, IssueListItem } from "../../shared/triage.views";
import { AppError, notFound } from "../errors";
import { toPaged } from "../db/paging";
import type { LagTolerantReads, ServiceContext } from "../context";
import { readDbOf } from "../db/read-db";
import { requirePermission } from "../organizations/permissions";
import { requireProject } from "../projects/project-scope";
import { bucketsIncludeUnnamed, environmentNamesFor } from "./issue-environments";
import { selectIssueActivity, selectIssueTags } from "./issue-detail.queries";
import { releaseResolutionFor } from "./issue-release-resolution";
import { selectIssueReleases } from "./issue-releases.queries";
import { updateIssueSeverity, updateIssueStatuses, type TriageActor } from "./issue-triage.queries";
import { selectIssue, selectIssueFirstPage, selectIssuePage, selectIssueProjectId } from "./issue.queries";
import { toIssueDetail, toIssueListItem } from "./issue.view";

/** Who changes an issue (status, severity, merge, split): a role with `issue:triage`. */
export async function triageActor(ctx: Pick<ServiceContext, "db" | "org" | "checkedProject" | "via">, projectId: string): Promise<TriageActor> {
  await requirePermission(ctx, "issue:triage");
  return { organizationId: ctx.org.organizationId, projectId, userId: ctx.org.userId, via: ctx.via };
}

/**
 * The contexts of reads that tolerate lag: the project check reads the primary (tenancy as every
 * verb's), the issues `readDb` (the read replica when the request may use it, context.ts).
 */
type ReadContext = Pick<ServiceContext, "db" | "org" | "checkedProject"> & LagTolerantReads;

/** The list's filter with its environment buckets resolved to the project's environment names. */
async function issueFilterFor(ctx: ReadContext, input: ListIssuesInput) {
  await requireProject(ctx, input.projectId);
  const environmentNames = await environmentNamesFor(readDbOf(ctx), ctx.org.organizationId, input.projectId, input.environments);
  return { ...input, environmentNames, includeUnnamed: bucketsIncludeUnnamed(input.environments) };
}

export async function listIssues(ctx: ReadContext, input: ListIssuesInput): Promise<Paged<IssueListItem>> {
  const { rows, total } = await selectIssuePage(readDbOf(ctx), ctx.org.organizationId, input.projectId, await issueFilterFor(ctx, input));
  return toPaged(rows.map(toIssueListItem), total, input.page, input.size);
}

/** The first page of `input` (its `page` is ignored) and whether more issues match, uncounted (selectIssueFirstPage). */
export async function searchIssues(ctx: ReadContext, input: ListIssuesInput): Promise<{ items: IssueListItem[]; more: boolean }> {
  const { rows, more } = await selectIssueFirstPage(readDbOf(ctx), ctx.org.organizationId, input.projectId, await issueFilterFor(ctx, input));
  return { items: rows.map(toIssueListItem), more };
}

/**
 * Every issue the list's filter matches, in the list's order, `pageSize` at a time and uncounted,
 * until `maxRows` (the CSV export: exports/issue-csv.service.ts). The filter is resolved once.
 */
export async function* walkIssues(
  ctx: ReadContext,
  input: Omit<ListIssuesInput, "page" | "size">,
  pageSize: number,
  maxRows: number,
): AsyncGenerator<(IssueListItem & { firstRelease: string | null; lastRelease: string | null })[]> {
  const filter = await issueFilterFor(ctx, { ...input, page: 1, size: pageSize });
  for (let offset = 0; offset < maxRows; offset += pageSize) {
    const size = Math.min(pageSize, maxRows - offset);
    const { rows, more } = await selectIssueFirstPage(readDbOf(ctx), ctx.org.organizationId, input.projectId, { ...filter, size }, offset);
    if (rows.length) yield rows.map((row) => ({ ...toIssueListItem(row), firstRelease: row.firstRelease, lastRelease: row.lastRelease }));
    if (!more) return;
  }
}

/** After a change (status, merge), the caller's request writes, so its `readDb` is the primary (http/read-after-write.ts). */
export async function getIssue(ctx: ReadContext, scope: IssueScope): Promise<IssueDetail> {
  await requireProject(ctx, scope.projectId);
  const { organizationId } = ctx.org;
  const db = readDbOf(ctx);
  // All at once (each scoped like the issue itself); the tags, activity and releases of a missing issue are none and unused.
  const [row, tags, activity, releases] = await Promise.all([
    selectIssue(db, organizationId, scope.projectId, scope.issueId),
    selectIssueTags(db, organizationId, scope.projectId, scope.issueId),
    selectIssueActivity(db, organizationId, scope.projectId, scope.issueId),
    selectIssueReleases(db, organizationId, scope.projectId, scope.issueId),
  ]);
  // One the standby has not received yet (a link from an alert) is read on the primary before it is NOT_FOUND.
  if (!row && db !== ctx.db) return getIssue({ ...ctx, readDb: ctx.db }, scope);
  if (!row) throw notFound("Issue");
  return toIssueDetail(row, tags, activity, releases);
}

/**
 * Which of the caller's organization's projects an issue is in, for a link that names only the
 * issue (the screen then redirects to the issue with its project). Scoped by the session's
 * organization like every read: another organization's issue is NOT_FOUND, as a missing one.
 */
export async function locateIssue(ctx: Pick<ServiceContext, "db" | "org" | "checkedProject">, input: LocateIssueInput): Promise<{ projectId: string }> {
  const projectId = await selectIssueProjectId(ctx.db, ctx.org.organizationId, input.issueId);
  if (!projectId) throw notFound("Issue");
  return { projectId };
}

async function requireIssue(ctx: Pick<ServiceContext, "db" | "org" | "checkedProject">, scope: IssueScope) {
  await requireProject(ctx, scope.projectId);
  if (!(await selectIssue(ctx.db, ctx.org.organizationId, scope.projectId, scope.issueId))) throw notFound("Issue");
}

/**
 * Setting the status an issue already has changes nothing and records nothing (resolving in a
 * release changes the resolution of a RESOLVED issue: issue-triage.queries.ts).
 */
export async function setIssueStatus(ctx: Pick<ServiceContext, "db" | "org" | "checkedProject" | "via">, input: SetIssueStatusInput): Promise<IssueDetail> {
  await requireIssue(ctx, input);
  const actor = await triageActor(ctx, input.projectId);
  const release = await releaseResolutionFor(ctx, input.projectId, input);
  await updateIssueStatuses(ctx.db, actor, [input.issueId], input.status, release);
  return getIssue(ctx, input);
}

export async function setIssueSeverity(ctx: Pick<ServiceContext, "db" | "org" | "checkedProject" | "via">, input: SetIssueSeverityInput): Promise<IssueDetail> {
  await requireIssue(ctx, input);
  await updateIssueSeverity(ctx.db, await triageActor(ctx, input.projectId), input.issueId, input.severity);
  return getIssue(ctx, input);
}

/**
 * Ids of other projects or organizations are silently skipped: `updated` counts real changes. The
 * issues share their project, so `inRelease: "next"` is that project's latest release for all.
 */
export async function bulkSetIssueStatus(
  ctx: Pick<ServiceContext, "db" | "org" | "checkedProject">,
  input: BulkSetIssueStatusInput,
): Promise<{ updated: number }> {
  await requireProject(ctx, input.projectId);
  const actor = await triageActor(ctx, input.projectId);
  const release = await releaseResolutionFor(ctx, input.projectId, input);
  const changed = await updateIssueStatuses(ctx.db, actor, [...new Set(input.issueIds)], input.status, release);
  return { updated: changed.length };
}

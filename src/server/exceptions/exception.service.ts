import type { z } from "zod";
import type { EnvironmentBucket } from "../../shared/environments";
import type { Paged } from "../../shared/paging";
import type { ExceptionScope, ListExceptionsInput } from "../../shared/triage.inputs";
import type { ExceptionDetail, ExceptionListItem } from "../../shared/triage.views";
import type { NormalizedOccurrence } from "../../shared/occurrence.types";
import { toPaged } from "../db/paging";
import { occurrenceTags } from "../ingest/store/occurrence-tags";
import { notFound } from "../errors";
import { selectIssue } from "../issues/issue.queries";
import type { LagTolerantReads, ServiceContext } from "../context";
import { readDbOf } from "../db/read-db";
import { requireProject } from "../projects/project-scope";
import { countExceptions, selectException, selectExceptionPage } from "./exception.queries";

type ExceptionRow = Awaited<ReturnType<typeof selectExceptionPage>>[number];

function toExceptionListItem(row: ExceptionRow): ExceptionListItem {
  return {
    id: row.id,
    issueId: row.issueId,
    eventId: row.eventId,
    createdAt: row.receivedAt,
    timestamp: row.timestamp,
    environment: row.environmentBucket as EnvironmentBucket,
    environmentName: row.environment,
    platform: row.platform,
    level: row.level,
    release: row.release,
    name: row.name,
    message: row.message,
  };
}

/** The occurrences of a project, or of one of its issues (which must exist in it), newest first, optionally of some environments. */
/** The project check reads the primary (tenancy as every verb's), the exceptions `readDb` (the read replica when usable, context.ts). */
type ReadContext = Pick<ServiceContext, "db" | "org" | "checkedProject"> & LagTolerantReads;

export async function listExceptions(ctx: ReadContext, input: z.output<typeof ListExceptionsInput>): Promise<Paged<ExceptionListItem>> {
  await requireProject(ctx, input.projectId);
  const { organizationId } = ctx.org;
  const db = readDbOf(ctx);
  // Whether the issue exists is the primary's word: a link (an alert) can arrive before the standby has the issue.
  if (input.issueId && !(await selectIssue(ctx.db, organizationId, input.projectId, input.issueId))) throw notFound("Issue");
  const direction = input.sort[0]?.direction ?? "DESC";
  const [rows, total] = await Promise.all([
    selectExceptionPage(db, organizationId, input.projectId, {
      issueId: input.issueId,
      environments: input.environments,
      page: input.page,
      size: input.size,
      direction,
    }),
    countExceptions(db, organizationId, input.projectId, input.issueId, input.environments),
  ]);
  return toPaged(rows.map(toExceptionListItem), total, input.page, input.size);
}

export async function getException(ctx: ReadContext, scope: z.output<typeof ExceptionScope>): Promise<ExceptionDetail> {
  await requireProject(ctx, scope.projectId);
  const db = readDbOf(ctx);
  const row = await selectException(db, ctx.org.organizationId, scope.projectId, scope.exceptionId);
  // One the standby has not received yet (a link from an alert) is read on the primary before it is NOT_FOUND.
  if (!row && db !== ctx.db) return getException({ ...ctx, readDb: ctx.db }, scope);
  if (!row) throw notFound("Exception");
  const data = row.data as Record<string, unknown>;
  const tags = Object.entries(occurrenceTags(data as Partial<NormalizedOccurrence>)).map(([key, value]) => ({ key, value }));
  return { ...toExceptionListItem(row), tags, data };
}

import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { indexOrder } from "../db/order";
import { offsetOf } from "../db/paging";
import { issues, occurrences } from "../db/schema/index";

// Every statement filters on organization_id AND project_id; an occurrence id alone never reaches a row.

const occurrenceScope = (organizationId: string, projectId: string) =>
  and(eq(occurrences.organizationId, organizationId), eq(occurrences.projectId, projectId));

/** The narrow columns of a list row; `data` (the whole event) is read only by the detail. */
export const exceptionColumns = {
  id: occurrences.id,
  issueId: occurrences.issueId,
  eventId: occurrences.eventId,
  receivedAt: occurrences.receivedAt,
  timestamp: occurrences.timestamp,
  environmentBucket: occurrences.environmentBucket,
  environment: occurrences.environment,
  platform: occurrences.platform,
  level: occurrences.level,
  release: occurrences.release,
  name: occurrences.name,
  message: occurrences.message,
};

export interface ExceptionPageQuery {
  issueId?: string;
  page: number;
  size: number;
  direction: "ASC" | "DESC";
}

/** Newest first by default, served by occurrences_org_issue_received_idx / occurrences_org_project_received_idx. */
export function selectExceptionPage(db: Db, organizationId: string, projectId: string, query: ExceptionPageQuery) {
  return db
    .select(exceptionColumns)
    .from(occurrences)
    .where(and(occurrenceScope(organizationId, projectId), query.issueId ? eq(occurrences.issueId, query.issueId) : undefined))
    .orderBy(indexOrder(occurrences.receivedAt, query.direction), indexOrder(occurrences.id, query.direction))
    .limit(query.size)
    .offset(offsetOf(query.page, query.size));
}

/**
 * How many occurrences the list pages over, from the counters ingest keeps beside each issue
 * (event_count counts exactly the occurrences inserted) rather than COUNT(*) over a hot issue.
 */
export async function countExceptions(db: Db, organizationId: string, projectId: string, issueId?: string) {
  const [row] = await db
    .select({ total: sql<number>`coalesce(sum(${issues.eventCount}), 0)`.mapWith(Number) })
    .from(issues)
    .where(and(eq(issues.organizationId, organizationId), eq(issues.projectId, projectId), issueId ? eq(issues.id, issueId) : undefined));
  return row?.total ?? 0;
}

export async function selectException(db: Db, organizationId: string, projectId: string, exceptionId: string) {
  const [row] = await db
    .select({ ...exceptionColumns, data: occurrences.data })
    .from(occurrences)
    .where(and(occurrenceScope(organizationId, projectId), eq(occurrences.id, exceptionId)))
    .limit(1);
  return row ?? null;
}

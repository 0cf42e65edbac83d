import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { EnvironmentBucket } from "../../shared/environments";
import type { Db } from "../db/client";
import { indexOrder, partitionKeyOrder } from "../db/order";
import { offsetOf } from "../db/paging";
import { issueDailyCounts, issues, occurrences, projectDailyCounts } from "../db/schema/index";

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
  /** Only these environment buckets (absent or empty: every environment). */
  environments?: EnvironmentBucket[];
  page: number;
  size: number;
  direction: "ASC" | "DESC";
}

/**
 * An issue being deleted (marked) is gone for readers from the request on, but its occurrences stay
 * until the deletion job reaches them: the project-wide list skips them with an anti-join on the
 * issue's primary key, one index probe per row read, so the page still walks the received index.
 */
const notOfDeletedIssue = sql`not exists (select 1 from ${issues} where ${issues.id} = ${occurrences.issueId} and ${issues.deletionId} is not null)`;

/**
 * Newest first by default, served by occurrences_issue_received_idx / occurrences_org_project_received_idx.
 * The day comes first in the order (it is the partition key, and received_at's own day, so the
 * order is the same): PostgreSQL then reads the week partitions one after another, newest first,
 * and stops at the page's end instead of merging an index scan of every partition.
 */
export function selectExceptionPage(db: Db, organizationId: string, projectId: string, query: ExceptionPageQuery) {
  return db
    .select(exceptionColumns)
    .from(occurrences)
    .where(
      and(
        occurrenceScope(organizationId, projectId),
        // One issue's list was asked of a live issue (the service checks it); the project's skips deleted ones.
        query.issueId ? eq(occurrences.issueId, query.issueId) : notOfDeletedIssue,
        query.environments?.length ? inArray(occurrences.environmentBucket, query.environments) : undefined,
      ),
    )
    .orderBy(
      partitionKeyOrder(occurrences.receivedOn, query.direction),
      indexOrder(occurrences.receivedAt, query.direction),
      indexOrder(occurrences.id, query.direction),
    )
    .limit(query.size)
    .offset(offsetOf(query.page, query.size));
}

/**
 * How many occurrences the list pages over, from the counters ingest keeps beside each issue
 * (event_count counts exactly the occurrences inserted) rather than COUNT(*) over a hot issue.
 */
export async function countExceptions(db: Db, organizationId: string, projectId: string, issueId?: string, environments?: EnvironmentBucket[]) {
  if (environments?.length) return countExceptionsIn(db, organizationId, projectId, environments, issueId);
  const [row] = await db
    .select({ total: sql<number>`coalesce(sum(${issues.eventCount}), 0)`.mapWith(Number) })
    .from(issues)
    .where(
      and(eq(issues.organizationId, organizationId), eq(issues.projectId, projectId), isNull(issues.deletionId), issueId ? eq(issues.id, issueId) : undefined),
    );
  return row?.total ?? 0;
}

/**
 * The same count for some environment buckets, from the daily rollups ingest writes in the
 * occurrences' own transaction (so they sum to exactly the stored occurrences): the issue's rollup
 * for one issue, the project's (a few rows a day) otherwise.
 */
async function countExceptionsIn(db: Db, organizationId: string, projectId: string, environments: EnvironmentBucket[], issueId?: string) {
  const [row] = issueId
    ? await db
        .select({ total: sql<number>`coalesce(sum(${issueDailyCounts.count}), 0)`.mapWith(Number) })
        .from(issueDailyCounts)
        .where(
          and(
            eq(issueDailyCounts.organizationId, organizationId),
            eq(issueDailyCounts.projectId, projectId),
            eq(issueDailyCounts.issueId, issueId),
            inArray(issueDailyCounts.environment, environments),
          ),
        )
    : await db
        .select({ total: sql<number>`coalesce(sum(${projectDailyCounts.count}), 0)`.mapWith(Number) })
        .from(projectDailyCounts)
        .where(
          and(
            eq(projectDailyCounts.organizationId, organizationId),
            eq(projectDailyCounts.projectId, projectId),
            inArray(projectDailyCounts.environment, environments),
          ),
        );
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

import { and, eq } from "drizzle-orm";
import { indexOrder, partitionKeyOrder } from "../db/order";
import type { Db } from "../db/client";
import { occurrences } from "../db/schema/index";
import { exceptionColumns } from "../exceptions/exception.queries";

/**
 * An issue's newest `limit` occurrences with their stored documents, newest first: one read of
 * occurrences_issue_received_idx, scoped by organization, project and issue like every read.
 */
export function selectLatestOccurrences(db: Db, organizationId: string, projectId: string, issueId: string, limit: number) {
  return (
    db
      .select({ ...exceptionColumns, data: occurrences.data })
      .from(occurrences)
      .where(and(eq(occurrences.organizationId, organizationId), eq(occurrences.projectId, projectId), eq(occurrences.issueId, issueId)))
      // The partition key first, as the exception list does (exception.queries.ts).
      .orderBy(partitionKeyOrder(occurrences.receivedOn, "DESC"), indexOrder(occurrences.receivedAt, "DESC"), indexOrder(occurrences.id, "DESC"))
      .limit(limit)
  );
}

export type LatestOccurrenceRow = Awaited<ReturnType<typeof selectLatestOccurrences>>[number];

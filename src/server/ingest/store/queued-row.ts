import type { StatementRunner } from "./batch-commit";
import type { PreparedOccurrence } from "./prepared-occurrence";

/**
 * A kind of row another domain writes through the batch writer (the events domain's analytics
 * events): it shares the writer's queue, queue limit and 503 policy with occurrences, and each
 * kind costs one statement per batch instead of one transaction per request.
 */
export interface RowKind<T> {
  /** Inserts one batch's rows of this kind in ONE statement, so a failure leaves none of them written. */
  insert(db: StatementRunner, rows: T[]): Promise<unknown>;
}

/** One row of another domain waiting in the writer's queue beside the occurrences. */
export class QueuedRow<T = unknown> {
  constructor(
    readonly kind: RowKind<T>,
    readonly row: T,
  ) {}
}

export type BatchItem = PreparedOccurrence | QueuedRow;

/** A batch's occurrences and its other rows; a batch of occurrences only (the usual one) is returned as is. */
export function splitBatch(batch: BatchItem[]): [PreparedOccurrence[], QueuedRow[]] {
  if (!batch.some((item) => item instanceof QueuedRow)) return [batch as PreparedOccurrence[], []];
  const occurrences: PreparedOccurrence[] = [];
  const rows: QueuedRow[] = [];
  for (const item of batch) {
    if (item instanceof QueuedRow) rows.push(item);
    else occurrences.push(item);
  }
  return [occurrences, rows];
}

/** Inserts a batch's queued rows, one statement per kind. */
export async function insertQueuedRows(db: StatementRunner, rows: QueuedRow[]) {
  const byKind = new Map<RowKind<unknown>, unknown[]>();
  for (const { kind, row } of rows) {
    const same = byKind.get(kind);
    if (same) same.push(row);
    else byKind.set(kind, [row]);
  }
  for (const [kind, same] of byKind) await kind.insert(db, same);
}

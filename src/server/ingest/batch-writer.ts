import type { Logger } from "../logger";
import { commitBatch, type StatementRunner } from "./batch-commit";
import type { PendingOccurrence, PendingOutcome } from "./pending-occurrence";
import { StorageUnavailableError } from "./storage-unavailable";

export interface BatchWriterOptions {
  /** Events per transaction at most. */
  maxBatch: number;
  /**
   * Transactions committing at once. PostgreSQL overlaps one batch's commit (fsync) with the
   * next batch's statements; PGlite has a single connection, so 1 there.
   */
  maxInFlight: number;
  /** Events waiting at most before new ones are refused with 503 (backpressure, bounded memory). */
  maxQueue: number;
}

interface Waiter {
  item: PendingOccurrence;
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * Group commit: requests enqueue their events and wait; one transaction at a time commits
 * everything queued so far. While a commit runs, new arrivals pile up and go together in the
 * next, so throughput grows with load instead of paying one transaction per event.
 */
export class BatchWriter {
  private queue: Waiter[] = [];
  private outcomes: PendingOutcome[] = [];
  private inFlight = 0;
  private idle: (() => void)[] = [];
  private closed = false;

  constructor(
    private readonly db: StatementRunner,
    private readonly logger: Logger,
    private readonly options: BatchWriterOptions = { maxBatch: 1000, maxQueue: 20_000, maxInFlight: 1 },
  ) {}

  /** Resolves once the event is committed; rejects with StorageUnavailableError otherwise. */
  write(item: PendingOccurrence): Promise<void> {
    if (this.closed) return Promise.reject(new StorageUnavailableError("Ingest is shutting down"));
    if (this.queue.length >= this.options.maxQueue) {
      return Promise.reject(new StorageUnavailableError("Ingest queue is full", 1));
    }
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /** Outcome counters ride along with the next commit (best effort: they are statistics). */
  record(outcome: PendingOutcome) {
    this.outcomes.push(outcome);
    this.schedule();
  }

  /** Commits what is queued and refuses new writes (SIGTERM). */
  async close() {
    this.closed = true;
    while (this.inFlight > 0 || this.queue.length > 0 || this.outcomes.length > 0) {
      this.schedule();
      await new Promise<void>((resolve) => this.idle.push(resolve));
    }
  }

  private schedule() {
    if (this.inFlight >= this.options.maxInFlight) return;
    if (this.queue.length === 0 && this.outcomes.length === 0) return;
    this.inFlight += 1;
    void this.drain().finally(() => {
      this.inFlight -= 1;
      for (const resolve of this.idle.splice(0)) resolve();
      this.schedule();
    });
  }

  private async drain() {
    // Yield once so requests arriving in the same tick join this batch.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const waiters = this.queue.splice(0, this.options.maxBatch);
    const outcomes = this.outcomes.splice(0);
    if (waiters.length === 0 && outcomes.length === 0) return;
    // More work queued than this batch takes: let another transaction start on it now.
    if (this.queue.length > 0) this.schedule();
    try {
      await this.commitWithRetry(
        waiters.map((waiter) => waiter.item),
        outcomes,
      );
      for (const waiter of waiters) waiter.resolve();
    } catch (error) {
      this.logger.warn("ingest batch failed", { events: waiters.length, err: error });
      const failure = new StorageUnavailableError("Storage is unavailable", 5, { cause: error });
      for (const waiter of waiters) waiter.reject(failure);
    }
  }

  /**
   * Concurrent batches lock issue and rollup rows in the same key order, so deadlocks should not
   * happen; if PostgreSQL still picks this transaction as a deadlock or serialization victim,
   * nothing was written and one more attempt is safe.
   */
  private async commitWithRetry(items: PendingOccurrence[], outcomes: PendingOutcome[]) {
    try {
      await commitBatch(this.db, items, outcomes);
    } catch (error) {
      const code = (error as { cause?: { code?: string }; code?: string }).cause?.code ?? (error as { code?: string }).code;
      if (code !== "40P01" && code !== "40001") throw error;
      await commitBatch(this.db, items, outcomes);
    }
  }
}
